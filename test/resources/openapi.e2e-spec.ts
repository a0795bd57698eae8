import Ajv, { ValidateFunction } from 'ajv';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROUTE_DOCS } from '../../src/api-docs/route-docs';
import { AppValidationPipe } from '../../src/shared/validation/validation.pipe';
import { TestApp, startTestApp } from '../support/test-app';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { apiTour, startTarget } = require('../../scripts/api-tour.js');

const SECRET = 'telephony-secret-for-the-openapi-test';
const METHODS = ['get', 'post', 'put', 'delete'] as const;
/** A voice runtime's callbacks exist with that runtime as the dialer only: their own suites walk them. */
const runtimeRoute = /^POST \/api\/telephony\/(vapi|retell|twilio)\//;

/** docs/api.md: `GET /docs` and `GET /docs-json` describe every route, and what they say is what the service does. */
describe('OpenAPI', () => {
  let t: TestApp;
  let target: { url: string; stop(): Promise<void> };

  let doc: any;
  let ajv: Ajv;
  const operation = (method: string, route: string) => doc.paths[route.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
  const validator = (schema: object): ValidateFunction => ajv.compile({ ...schema, components: doc.components });

  beforeAll(async () => {
    // The generic telephony routes exist with the HTTP runtime only: the tour's target plays its provider.
    target = await startTarget(SECRET);
    t = await startTestApp({
      TELEPHONY_SECRET: SECRET,
      DIALER: 'http',
      DIALER_URL: `${target.url}/dial`,
      DIAL_INTERVAL_MS: '50',
      WEBHOOK_RETRY_DELAYS: '1',
    });
    const answer = await fetch(`${t.url}/docs-json`);
    expect(answer.status).toBe(200);
    doc = await answer.json();
    // Formats are documentation here, not rules the answers are held to (Ajv knows OpenAPI's `nullable`).
    ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  });
  afterAll(() => t.close());

  it('is a valid document of the OpenAPI version it declares, and a typed client generated from it compiles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    try {
      const root = join(__dirname, '..', '..');
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
      const run = promisify(execFile);
      const validated = await run(process.execPath, [join(__dirname, '../support/validate-openapi.js'), join(dir, 'openapi.json')]).catch((e) => e);
      expect(validated.stderr).toBe('');
      expect(validated.stdout).toBe('valid\n');
      await run(process.execPath, [join(root, 'node_modules/openapi-typescript/bin/cli.js'), join(dir, 'openapi.json'), '-o', join(dir, 'api.ts')]);
      // A client's use of it: the lead create answer's type, checked strictly.
      writeFileSync(
        join(dir, 'client.ts'),
        "import type { paths } from './api';\n" +
          "type Created = paths['/api/user/lead']['post']['responses']['200']['content']['application/json'];\n" +
          'export const id = (created: Created): number => created.data.id;\n',
      );
      await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--skipLibCheck', join(dir, 'client.ts')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('documents every registered route with a summary, its callers, a 2xx answer with schema and example, and its errors', () => {
    // The pages (Swagger UI, the dashboard) are not API routes.
    const registered = t.routes.filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/docs') && !r.url.startsWith('/dashboard'));
    expect(registered.length).toBeGreaterThan(35);
    for (const { method, url } of registered) {
      const op = operation(method, url);
      expect({ route: `${method} ${url}`, documented: !!op?.summary && !!op.tags?.length }).toEqual({ route: `${method} ${url}`, documented: true });
      const ok = Object.entries(op.responses).find(([status]) => status.startsWith('2')) as [
        string,
        { content: Record<string, { schema: object; example: unknown }> },
      ];
      expect(ok).toBeDefined();
      const [media] = Object.values(ok[1].content);
      expect(media.schema).toBeDefined();
      expect(media.example).toBeDefined();
      expect(op.responses['500']).toBeDefined();
      if (url.startsWith('/api/'))
        expect(op.responses['401'].content['application/json'].example).toEqual(expect.objectContaining({ message: expect.any(String) }));
    }
    // Nothing documented that the service does not serve (a voice runtime's callbacks: with that runtime only; their suites walk them).
    const served = new Set(registered.map((r) => `${r.method} ${r.url}`));
    expect(Object.keys(ROUTE_DOCS).filter((key) => !served.has(key) && !runtimeRoute.test(key))).toEqual([]);
  });

  it("documents a call's webhook answer by its fields, null until the webhook answers", () => {
    for (const route of ['/api/user/calls/:id', '/api/user/calls']) {
      const schema = operation('GET', route).responses['200'].content['application/json'].schema;
      const call = route.endsWith(':id') ? schema : schema.properties.data.items;
      expect({ route, webhook_response: call.properties.webhook_response }).toMatchObject({
        route,
        webhook_response: {
          type: 'object',
          nullable: true,
          properties: { status_code: { type: 'number' }, body: { type: 'object' }, attempts: { type: 'number' }, delivered_at: { type: 'string' } },
        },
      });
    }
  });

  it('holds every documented answer example to its own schema', () => {
    for (const [path, item] of Object.entries<Record<string, { responses: Record<string, { content: Record<string, { schema: object; example: unknown }> }> }>>(
      doc.paths,
    )) {
      for (const method of METHODS) {
        for (const [status, response] of Object.entries(item[method]?.responses ?? {})) {
          for (const media of Object.values(response.content ?? {})) {
            const validate = validator(media.schema);
            expect({ at: `${method} ${path} ${status}`, errors: validate(media.example) ? null : validate.errors }).toEqual({
              at: `${method} ${path} ${status}`,
              errors: null,
            });
          }
        }
      }
    }
  });

  it("passes every documented request example through the route's own validators and its documented schema", async () => {
    for (const [key, route] of Object.entries(ROUTE_DOCS)) {
      if (!route.body || runtimeRoute.test(key)) continue;
      const [method, url] = key.split(' ');
      const media = operation(method, url).requestBody.content['application/json'];
      expect({ key, example: media.example !== undefined }).toEqual({ key, example: true });
      await expect(new AppValidationPipe().transform(media.example, { type: 'body', metatype: route.body })).resolves.toBeDefined();
      const validate = validator(media.schema);
      expect({ key, errors: validate(media.example) ? null : validate.errors }).toEqual({ key, errors: null });
    }
  });

  it('refuses, by the documented request schemas, what the validators refuse', () => {
    const lead = validator(operation('POST', '/api/user/lead').requestBody.content['application/json'].schema);
    expect(lead({ campaign_id: 1 })).toBe(false);
    expect(lead({ campaign_id: 1, phone_number: '555' })).toBe(false);
    expect(lead({ campaign_id: 1, phone_number: '+12025550101', secondary_contacts: [{}] })).toBe(false);
    const campaign = validator(operation('POST', '/api/user/campaigns').requestBody.content['application/json'].schema);
    expect(campaign({ name: 'x', assistant_id: 1, max_retries: 21 })).toBe(false);
    expect(campaign({ name: 'x', assistant_id: 1, calling_days: ['someday'] })).toBe(false);
    const update = validator(operation('PUT', '/api/user/campaigns/:id').requestBody.content['application/json'].schema);
    expect(update({ max_retries: 3 })).toBe(true);
  });

  it('describes every answer of a walk through the whole API by the schema documented for its route and status', async () => {
    const { token } = await t.createUser();
    const exchanges: Array<{ method: string; route: string; status: number; answer: unknown }> = await apiTour(t.url, token, SECRET, target);
    // Every route but a voice runtime's callbacks (they answer only with that runtime as the dialer: their own suites walk them).
    const walkable = Object.values(ROUTE_DOCS).filter((doc) => !doc.shown).length;
    expect(new Set(exchanges.map((e) => `${e.method} ${e.route}`)).size).toBe(walkable);
    for (const { method, route, status, answer } of exchanges) {
      const response = operation(method, route)?.responses[String(status)];
      expect({ at: `${method} ${route} ${status}`, documented: response !== undefined }).toEqual({ at: `${method} ${route} ${status}`, documented: true });
      const validate = validator(Object.values<{ schema: object }>(response.content)[0].schema);
      expect({ at: `${method} ${route} ${status}`, errors: validate(answer) ? null : validate.errors }).toEqual({
        at: `${method} ${route} ${status}`,
        errors: null,
      });
    }
  });

  it('serves Swagger UI and its assets from the service itself', async () => {
    const page = await fetch(`${t.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    for (const asset of [...html.matchAll(/(?:src|href)="\.\/(docs\/[^"]+)"/g)].map((m) => m[1])) {
      expect({ asset, status: (await fetch(`${t.url}/${asset}`)).status }).toEqual({ asset, status: 200 });
    }
  });
});
