import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import examples from './examples.json';
import { Schema, inferFromAll } from './infer-schema';
import { allRequestSchemas, requestSchema } from './request-schemas';
import { Caller, ROUTE_DOCS, RouteDoc } from './route-docs';
import { serveSwaggerUi } from './swagger-ui';
import { PERMISSION_EXTENSION, Permission } from '../access/permissions';

type Exchange = { request?: unknown; answer: unknown };
const EXAMPLES = examples as unknown as Record<string, Record<string, Exchange[]>>;

/** docs/api.md: every error is JSON with a `message`; a refused body or query adds each field's messages. */
const ERROR: Schema = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
  required: ['message'],
};

const ERROR_ANSWERS: Record<number, string> = {
  400: 'Malformed JSON body.',
  401: 'Unauthenticated.',
  403: 'This action is unauthorized.',
  404: 'Not found.',
  413: 'Payload too large.',
  415: 'Unsupported Media Type.',
  422: 'Validation failed',
  429: 'Too Many Attempts.',
  500: 'Server Error',
};

const SECURITY: Record<Caller, Array<Record<string, string[]>>> = {
  user: [{ token: [] }],
  provider: [{ signature: [] }],
  vapi: [{ vapiSecret: [] }],
  retell: [{ retellSignature: [] }],
  twilio: [{ twilioSignature: [] }],
  scraper: [{ metrics: [] }],
  anyone: [],
};

/** The statuses a route may answer besides those its examples show. */
function errorStatuses(key: string, doc: RouteDoc): number[] {
  const statuses = new Set<number>([500]);
  if (doc.caller !== 'anyone') statuses.add(401);
  if (doc.caller === 'user') [403, 429].forEach((s) => statuses.add(s));
  if (key.includes('/:')) statuses.add(404);
  if (doc.body || doc.query) statuses.add(422);
  if (doc.body) [400, 413].forEach((s) => statuses.add(s));
  return [...statuses];
}

function responses(key: string, doc: RouteDoc) {
  const shown = EXAMPLES[key] ?? doc.shown ?? {};
  const out: Record<string, unknown> = {};
  for (const [status, exchanges] of Object.entries(shown)) {
    if (doc.produces && status === '200') {
      out[status] = { description: 'Answered', content: producedContent(doc.produces, exchanges) };
      continue;
    }
    const isError = Number(status) >= 400;
    const text = key === 'GET /metrics';
    const schema = isError
      ? ERROR
      : text
        ? { type: 'string' }
        : inferFromAll(
            exchanges.map((e) => e.answer),
            doc.openPaths,
          );
    out[status] = {
      description: isError ? `${ERROR_ANSWERS[Number(status)] ?? 'Refused'}` : 'Answered',
      content: { [text ? 'text/plain' : 'application/json']: { schema, example: exchanges[0].answer } },
    };
  }
  for (const status of errorStatuses(key, doc)) {
    out[status] ??= {
      description: ERROR_ANSWERS[status],
      content: { 'application/json': { schema: ERROR, example: { message: status === 404 ? 'Not found.' : ERROR_ANSWERS[status] } } },
    };
  }
  return out;
}

/** Each content type an export answers, with the walk's answer of that type as its example. */
function producedContent(types: string[], exchanges: Exchange[]) {
  return Object.fromEntries(
    types.map((type) => {
      const example = exchanges.find((e) => (e.request as { accept?: string } | undefined)?.accept === type)?.answer ?? exchanges[0].answer;
      return [type, { schema: { type: 'string' }, example }];
    }),
  );
}

function parameters(key: string, doc: RouteDoc) {
  const path = [...key.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'tool_name' || name === 'phone_number' ? { type: 'string' } : { type: 'integer', minimum: 1 },
  }));
  const query = doc.query
    ? Object.entries(requestSchema(doc.query).properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: false, schema }))
    : [];
  return [...path, ...query];
}

/** A file body: text of each content type, with the example the walk sent of it. */
function uploadContent(types: string[], key: string) {
  const sent = Object.values(EXAMPLES[key] ?? {})
    .flat()
    .map((exchange) => exchange.request as Record<string, string> | undefined);
  return Object.fromEntries(
    types.map((type) => {
      const example = sent.find((body) => body && typeof body[type] === 'string')?.[type];
      return [type, { schema: { type: 'string' }, ...(example === undefined ? {} : { example }) }];
    }),
  );
}

/** docs/teams.md: who may call a user route: a role at least this strong, and an API key with this scope. */
const permissionText = ({ scope, role }: Permission) =>
  `Needs the role ${role} or above; an API key needs the scope \`${scope}\`. Otherwise 403 \`This action is unauthorized.\` (with \`required_scope\` for a key).`;

function operation(key: string, doc: RouteDoc, permission?: Permission) {
  const requestExample = EXAMPLES[key] && Object.values(EXAMPLES[key]).flat()[0]?.request;
  return {
    operationId: key.replace(/[^A-Za-z0-9]+/g, '_').replace(/_$/, ''),
    tags: [doc.tag],
    summary: doc.summary,
    ...(permission ? { description: permissionText(permission), [PERMISSION_EXTENSION]: permission } : {}),
    security: SECURITY[doc.caller],
    parameters: parameters(key, doc),
    ...(doc.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: requestSchema(doc.body), ...(requestExample === undefined ? {} : { example: requestExample }) } },
          },
        }
      : {}),
    ...(doc.upload ? { requestBody: { required: true, content: uploadContent(doc.upload, key) } } : {}),
    responses: responses(key, doc),
  };
}

/** The OpenAPI document: Nest's routes, each described from ROUTE_DOCS, the validators and real answers. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Voice campaigns')
    .setDescription('Campaigns of AI voice assistants: tools, assistants, campaigns, leads, calls, webhooks. See README.md and docs/api.md.')
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A user token (npm run cli -- users:create)' }, 'token')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Signature', description: 'sha256=<HMAC-SHA256 of the raw body, key TELEPHONY_SECRET>' }, 'signature')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when it is set' }, 'metrics')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Vapi-Secret', description: 'VAPI_WEBHOOK_SECRET' }, 'vapiSecret')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-retell-signature', description: 'Retell’s signature of the raw body, key RETELL_API_KEY' },
      'retellSignature',
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-Twilio-Signature', description: 'Twilio’s signature of the URL and form fields, key TWILIO_AUTH_TOKEN' },
      'twilioSignature',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      if (!item[method]) continue;
      const key = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
      const doc = ROUTE_DOCS[key];
      const permission = (item[method] as unknown as Record<string, unknown>)[PERMISSION_EXTENSION] as Permission | undefined;
      if (doc) item[method] = operation(key, doc, permission) as (typeof item)[typeof method];
    }
  }
  document.components = { ...document.components, schemas: allRequestSchemas() as never };
  return document;
}

/** `GET /docs` (Swagger UI), `GET /docs-json` and `GET /docs-yaml`; the document is built at its first request. */
export function serveOpenApi(app: NestFastifyApplication): void {
  let document: OpenAPIObject | undefined;
  SwaggerModule.setup('docs', app, () => (document ??= buildOpenApiDocument(app)), { ui: false, jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml' });
  serveSwaggerUi(app.getHttpAdapter().getInstance());
}
