import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { sign } from '../../src/shared/signature';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { Mutation, Schema, mutationsOf, withValueAt } from '../support/schema-mutations';
import { TestApp, startTestApp } from '../support/test-app';
import { httpRuntimeEnv } from '../support/http-runtime';

const SECRET = 'schema-fuzz-telephony-secret';
const METHODS = ['post', 'put'] as const;

interface Operation {
  method: string;
  route: string;
  schema: Schema;
  example: unknown;
}

/**
 * docs/api.md at every depth: the request schemas of the served OpenAPI document drive the
 * bodies. For every property of every JSON body, at every depth, each JSON type its schema
 * refuses there, each value past its bounds and malformed values of its format (dates, times,
 * emails, URLs, E.164 numbers, zones, ids) are sent in the route's own example: every answer
 * is a 4xx in docs/api.md's shape naming the path (or a field that holds it), and no refusal writes an event.
 */
describe('every request schema, every wrong type at every depth', () => {
  let t: TestApp;
  let token: string;
  let doc: any;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    // The generic telephony routes (and so their bodies) exist with the HTTP runtime only.
    t = await startTestApp(httpRuntimeEnv(SECRET));
    ({ token } = await t.createUser(undefined, 50));
    const post = async (path: string, body: object) => (await t.request('POST', path, { token, body })).body.data.id as number;
    ids.assistant = await post('/api/user/assistant', requiredAssistantSettings);
    ids.campaign = await post('/api/user/campaigns', { name: 'Fuzzed', assistant_id: ids.assistant });
    ids.lead = await post('/api/user/lead', { campaign_id: ids.campaign, phone_number: '+12015559900' });
    ids.tool = await post('/api/user/tools', { name: 'fuzzed_tool', description: 'd', endpoint: 'https://example.com/t', method: 'POST' });
    doc = await (await fetch(`${t.url}/docs-json`)).json();
  });
  afterAll(() => t.close());

  const operations = (): Operation[] =>
    Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([route, ops]) =>
      METHODS.filter((m) => ops[m]?.requestBody?.content?.['application/json']).map((method) => {
        const media = ops[method].requestBody.content['application/json'];
        return { method: method.toUpperCase(), route, schema: media.schema, example: media.example };
      }),
    );

  /** The route with its ids filled: the resources made above, the tool's name, a call that does not exist. */
  const pathOf = (route: string) =>
    route
      .replace(/^\/api\/user\/(tools|assistant|campaigns|leads)\/\{id\}/, (_, kind: string) => `/api/user/${kind}/${ids[kind.replace(/s$/, '')]}`)
      .replace('{call_id}', '999999')
      .replace('{tool_name}', 'fuzzed_tool');

  async function send(op: Operation, body: unknown) {
    const text = JSON.stringify(body);
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
    if (op.route.startsWith('/api/telephony')) headers['x-signature'] = sign(text, SECRET);
    const res = await fetch(`${t.url}${pathOf(op.route)}`, { method: op.method, headers, body: text });
    return { status: res.status, text: await res.text() };
  }

  it('answers each with a 4xx in the shape of docs/api.md that names the path, and writes nothing', async () => {
    const events = t.app.get<EventStore>(EVENT_STORE);
    const failures: string[] = [];
    let sent = 0;
    const cases: Array<[Operation, Mutation]> = operations().flatMap((op) =>
      mutationsOf(op.schema, doc.components.schemas).map((m): [Operation, Mutation] => [op, m]),
    );
    expect(operations().length).toBeGreaterThanOrEqual(14);
    for (const [op, mutation] of cases) {
      // Each wrong value in the example, in the example without its other fields, and with every other field wrong too.
      const allWrong = Object.fromEntries(Object.keys(op.example as object).map((key) => [key, [[]]]));
      for (const base of [op.example, {}, allWrong]) {
        const head = await events.headPosition();
        const answer = await send(op, withValueAt(base, mutation.keys, mutation.value));
        sent++;
        const where = `${op.method} ${op.route} ${mutation.path}=${JSON.stringify(mutation.value)?.slice(0, 40)}`;
        let body: any = null;
        try {
          body = JSON.parse(answer.text);
        } catch {
          /* judged below */
        }
        if (answer.status < 400 || answer.status >= 500) failures.push(`${where}: ${answer.status} ${answer.text.slice(0, 120)}`);
        else if (typeof body?.message !== 'string') failures.push(`${where}: ${answer.status} not in docs/api.md's shape: ${answer.text.slice(0, 120)}`);
        // A malformed format among wrong fields: the route may judge it once the others pass.
        else if (answer.status === 422 && !(mutation.format && base === allWrong)) {
          // The path itself, a field holding it (a rule on the whole), or a part of the wrong value.
          const named =
            Object.keys(body.errors ?? {}).some(
              (field) => field === mutation.path || mutation.path.startsWith(`${field}.`) || field.startsWith(`${mutation.path}.`),
            ) ||
            (body.message === 'Invalid phone number' && mutation.path === 'phone_number'); // docs/api.md: a lead update's own message
          if (!named) failures.push(`${where}: 422 names ${Object.keys(body.errors ?? {}).join(', ')}`);
        }
        if ((await events.headPosition()) !== head) failures.push(`${where}: refused (${answer.status}) but wrote events`);
        if (failures.length > 2000) break;
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(10_000);
  }, 600_000);
});
