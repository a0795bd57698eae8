import { connect } from 'node:net';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { TestApp, startTestApp } from '../support/test-app';

/** The cases of docs/api.md's "strict bodies", each as a client sends it. */
describe('hostile and careless input (docs/api.md)', () => {
  let t: TestApp;
  let token: string;
  let campaign: number;
  const raw = (method: string, path: string, body: string) => t.request(method, path, { token, body, headers: { 'content-type': 'application/json' } });
  // Each lead a number of its own: a number drawn at random could repeat one and be refused as a duplicate.
  let numbers = 6000;
  const lead = async (variables: object | string) => {
    const body = typeof variables === 'string' ? variables : JSON.stringify(variables);
    return raw('POST', '/api/user/lead', `{"campaign_id":${campaign},"phone_number":"+1201555${numbers++}","variables":${body}}`);
  };

  beforeAll(async () => {
    t = await startTestApp({}, { background: false });
    ({ token } = await t.createUser());
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Hostile', assistant_id: assistant } })).body.data.id;
  });
  afterAll(() => t.close());

  it('refuses null for fields the interface does not mark nullable, on create and update', async () => {
    const created = (await lead({ a: 1 })).body.data.id;
    expect(await raw('PUT', `/api/user/leads/${created}`, '{"variables":null}')).toMatchObject({
      status: 422,
      body: { message: 'Validation failed', errors: { variables: expect.any(Array) } },
    });
    const tool = (
      await t.request('POST', '/api/user/tools', { token, body: { name: 'x', description: 'd', endpoint: 'https://example.com/x', method: 'GET' } })
    ).body.data.id;
    const nulls = await raw('PUT', `/api/user/tools/${tool}`, '{"name":null,"endpoint":null,"method":null,"description":null}');
    expect(nulls.status).toBe(422);
    expect(Object.keys(nulls.body.errors).sort()).toEqual(['description', 'endpoint', 'method', 'name']);
    const campaignNulls = await raw(
      'PUT',
      `/api/user/campaigns/${campaign}`,
      '{"name":null,"max_retries":null,"calling_hours":null,"calling_days":null,"max_concurrent_calls":null}',
    );
    expect(campaignNulls.status).toBe(422);
    expect(Object.keys(campaignNulls.body.errors).sort()).toEqual(['calling_days', 'calling_hours', 'max_concurrent_calls', 'max_retries', 'name']);
    expect((await t.request('GET', `/api/user/campaigns/${campaign}`, { token })).body).toMatchObject({ name: 'Hostile', max_retries: 3 });
    expect((await raw('POST', '/api/user/campaigns', '{"name":"x","assistant_id":1,"calling_hours":[]}')).body.errors.calling_hours).toBeDefined();
    // The interface's nullable fields still take null.
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    expect((await raw('PUT', `/api/user/assistant/${assistant}`, '{"phone_number_id":null,"webhook_url":null}')).status).toBe(200);
  });

  it('refuses a body that is not a JSON object, and reads __proto__ at the top as an unknown field', async () => {
    const created = (await lead({})).body.data.id;
    expect(await raw('PUT', `/api/user/leads/${created}`, 'null')).toMatchObject({
      status: 422,
      body: { errors: { body: ['The request body must be a JSON object.'] } },
    });
    expect(await raw('PUT', `/api/user/leads/${created}`, '{"__proto__":{"status":"completed"}}')).toMatchObject({
      status: 422,
      body: { message: 'Invalid fields: __proto__' },
    });
    expect(await raw('POST', '/api/user/campaigns', '{"__proto__":{"name":"x","assistant_id":1}}')).toMatchObject({
      status: 422,
      body: { errors: { name: expect.any(Array) } },
    });
    const [stored] = (await t.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body.filter((l: { id: number }) => l.id === created);
    expect(stored.status).toBe('created');
  });

  it('keeps variables named like Object.prototype members as data, and refuses __proto__ among them by name', async () => {
    const variables = { constructor: 'c', toString: 't', valueOf: 1, hasOwnProperty: true, prototype: null };
    const created = await lead(variables);
    expect(created.status).toBe(200);
    expect(created.body.data.variables).toEqual(variables);
    const updated = await raw('PUT', `/api/user/leads/${created.body.data.id}`, '{"variables":{"constructor":{"x":1}}}');
    expect(updated.status).toBe(422);
    expect(await raw('PUT', `/api/user/leads/${created.body.data.id}`, '{"variables":{"constructor":"d","isPrototypeOf":"e"}}')).toMatchObject({ status: 200 });
    const [stored] = (await t.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body.filter(
      (l: { id: number }) => l.id === created.body.data.id,
    );
    expect(stored.variables).toEqual({ ...variables, constructor: 'd', isPrototypeOf: 'e' });
    expect(await lead('{"__proto__":{"a":1}}')).toMatchObject({
      status: 422,
      body: { errors: { variables: ['The variables field must not contain the key __proto__.'] } },
    });
    expect(await lead('{"a":{"constructor":{}}}')).toMatchObject({ status: 422 });
  });

  it('holds a lead to 100 variables after merges', async () => {
    const fifty = (from: number) => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${from + i}`, i]));
    const created = (await lead(fifty(0))).body.data.id;
    expect((await t.request('PUT', `/api/user/leads/${created}`, { token, body: { variables: fifty(50) } })).status).toBe(200);
    expect(await t.request('PUT', `/api/user/leads/${created}`, { token, body: { variables: { one_more: 1 } } })).toMatchObject({
      status: 422,
      body: { errors: { variables: ['The variables field must not have more than 100 items.'] } },
    });
    expect((await t.request('PUT', `/api/user/leads/${created}`, { token, body: { variables: { k0: 'replaced' } } })).status).toBe(200);
  });

  it('refuses nesting deeper than 32 levels on the outermost field, before any recursive transform', async () => {
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(await raw('POST', '/api/user/lead', `{"campaign_id":${campaign},"variables":{"a":${deep(2000)}}}`)).toMatchObject({
      status: 422,
      body: { message: 'Validation failed', errors: { variables: ['The variables field must not be nested deeper than 32 levels.'] } },
    });
    expect((await raw('POST', '/api/user/lead', deep(100000))).body).toEqual({
      message: 'Validation failed',
      errors: { body: ['The body field must not be nested deeper than 32 levels.'] },
    });
  });

  it("answers the HTTP layer's own errors in the shape of docs/api.md", async () => {
    expect(await t.request('GET', `/api/user/leads/${'9'.repeat(400)}`, { token })).toMatchObject({ status: 404 });
    expect((await t.request('PUT', `/api/user/leads/${'9'.repeat(400)}`, { token, body: {} })).body).toEqual({ message: 'Lead not found' });
    const big = await t.request('GET', '/api/user/me', { token, headers: { 'x-big': 'a'.repeat(20_000) } });
    expect(big).toMatchObject({ status: 431, body: { message: 'Request header fields too large.' } });
  });

  it('answers 413 to a client still sending a body over 1 MiB, before closing', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(t.url).port), '127.0.0.1');
      const length = 3 * 1024 * 1024;
      let received = '';
      socket.on('data', (d) => (received += d));
      socket.on('close', () => resolve(received));
      socket.on('error', (e) => (received ? resolve(received) : reject(e)));
      socket.write(
        `POST /api/user/lead HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
      );
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const more = () => {
        if (sent >= length || socket.destroyed) return;
        sent += chunk.length;
        socket.write(chunk, () => setTimeout(more, 1));
      };
      more();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe('{"message":"Payload too large."}');
  });

  it('answers every 1.5 MiB update with its 413, never an error on the wire, however the client sends it', async () => {
    const text = JSON.stringify({ variables: { note: 'a'.repeat(1.5 * 1024 * 1024) } });
    // Whole with its length, and streamed in pieces (no length: the limit is met while it still sends).
    const whole = () => text;
    const streamed = () =>
      new ReadableStream<Uint8Array>({
        async start(controller) {
          for (let at = 0; at < text.length; at += 32 * 1024) {
            controller.enqueue(new TextEncoder().encode(text.slice(at, at + 32 * 1024)));
            await new Promise((r) => setTimeout(r, 2));
          }
          controller.close();
        },
      });
    const answers = await Promise.all(
      [...Array(6).fill(whole), ...Array(6).fill(streamed)].map(async (body: () => string | ReadableStream<Uint8Array>) => {
        const res = await fetch(`${t.url}/api/user/leads/1`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: body(),
          duplex: 'half',
        } as RequestInit);
        return [res.status, await res.json()];
      }),
    );
    expect(answers).toEqual(Array(12).fill([413, { message: 'Payload too large.' }]));
  });
});
