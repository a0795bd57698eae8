import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { sign } from '../../src/shared/signature';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { RegisteredUser } from '../../src/users/commands/register-user';
import { openCall } from '../support/calls';
import { Receiver } from '../support/receiver';
import { startTestApp, TestApp } from '../support/test-app';
import { httpRuntimeEnv } from '../support/http-runtime';

const SECRET = 'tools-telephony-secret';

describe('running mid-call tools', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let stranger: RegisteredUser;
  let receiver: Receiver;
  const schema = [
    { name: 'city', type: 'string', description: 'The city' },
    { name: 'nights', type: 'number', description: 'How many nights' },
    { name: 'breakfast', type: 'boolean', description: 'With breakfast' },
  ];

  beforeAll(async () => {
    receiver = await new Receiver((req) =>
      req.path.startsWith('/slow') ? { status: 200, body: { late: true }, delayMs: 1500 } : { status: 201, body: { ok: true, method: req.method } },
    ).start();
    t = await startTestApp(httpRuntimeEnv(SECRET));
    owner = await t.createUser(undefined, 50);
    stranger = await t.createUser();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const newTool = async (method: string, path = '/book', extra: object = {}) =>
    (
      await t.request('POST', '/api/user/tools', {
        token: owner.token,
        body: {
          name: 'book_room',
          description: 'Books a room',
          endpoint: `${receiver.url}${path}?source=voice`,
          method,
          schema,
          headers: [{ name: 'X-Api-Key', value: 'k-123' }],
          ...extra,
        },
      })
    ).body.data;
  const testRun = (id: number, args: unknown, token = owner.token) => t.request('POST', `/api/user/tools/${id}/test`, { token, body: { arguments: args } });
  const args = { city: 'Lisbon', nights: 2, breakfast: true };

  it.each(['GET', 'DELETE'])('sends %s arguments as the query string, with the tool headers', async (method) => {
    const tool = await newTool(method);
    const res = await testRun(tool.id, args);
    expect(res).toMatchObject({ status: 200, body: { status_code: 201, body: { ok: true, method }, duration_ms: expect.any(Number) } });
    const got = receiver.received.at(-1)!;
    expect(got.method).toBe(method);
    expect(new URL(got.path, 'http://x').searchParams.toString()).toBe('source=voice&city=Lisbon&nights=2&breakfast=true');
    expect(got.raw).toBe('');
    expect(got.headers['x-api-key']).toBe('k-123');
  });

  it.each(['POST', 'PUT', 'PATCH'])('sends %s arguments as a JSON body, with the tool headers', async (method) => {
    const tool = await newTool(method);
    expect((await testRun(tool.id, args)).body).toMatchObject({ status_code: 201, body: { method } });
    const got = receiver.received.at(-1)!;
    expect(got).toMatchObject({ method, body: args, path: '/book?source=voice' });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-api-key']).toBe('k-123');
  });

  it('gives up after the tool timeout and says so', async () => {
    const tool = await newTool('GET', '/slow', { timeout: 1 });
    expect((await testRun(tool.id, args)).body).toMatchObject({ status_code: null, body: null, error: 'no answer within 1 s' });
  });

  it('refuses arguments that break the schema, sending nothing', async () => {
    const tool = await newTool('POST');
    const before = receiver.received.length;
    const res = await testRun(tool.id, { city: 3, breakfast: 'yes', extra: 1 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'Validation failed',
      errors: {
        'arguments.city': ['The arguments.city field must be a string.'],
        'arguments.nights': ['The arguments.nights field is required.'],
        'arguments.breakfast': ['The arguments.breakfast field must be true or false.'],
        'arguments.extra': ['The arguments.extra field is not in the tool schema.'],
      },
    });
    expect((await testRun(tool.id, 'x')).body.errors).toEqual({ arguments: ['The arguments field must be an array.'] });
    expect(receiver.received.length).toBe(before);
  });

  it("answers 404 for another user's tool", async () => {
    const tool = await newTool('GET');
    expect(await testRun(tool.id, args, stranger.token)).toMatchObject({ status: 404, body: { message: 'Tool not found' } });
  });

  it('refuses tool endpoints on private addresses when saved, and those saved before when called', async () => {
    const endpoints = ['http://127.0.0.1/', 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://localhost/'];
    const dataDir = mkdtempSync(join(tmpdir(), 'voice-strict-'));
    // Saved while private targets were allowed: the call-time check still guards them.
    const permissive = await startTestApp({}, { dataDir, background: false });
    const user = await permissive.createUser();
    const saved: number[] = [];
    for (const [i, endpoint] of endpoints.entries()) {
      saved.push(
        (
          await permissive.request('POST', '/api/user/tools', {
            token: user.token,
            body: { name: `probe_${'abcde'[i]}`, description: 'd', endpoint, method: 'GET' },
          })
        ).body.data.id,
      );
    }
    await permissive.stop();
    const strict = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'false' }, { dataDir });
    try {
      for (const endpoint of endpoints) {
        expect(
          await strict.request('POST', '/api/user/tools', { token: user.token, body: { name: 'probe', description: 'd', endpoint, method: 'GET' } }),
        ).toMatchObject({
          status: 422,
          body: { message: 'The endpoint field must point to a public address.', errors: { endpoint: ['The endpoint field must point to a public address.'] } },
        });
        expect((await strict.request('PUT', `/api/user/tools/${saved[0]}`, { token: user.token, body: { endpoint } })).status).toBe(422);
      }
      for (const id of saved) {
        const res = await strict.request('POST', `/api/user/tools/${id}/test`, { token: user.token, body: {} });
        expect(res.body).toMatchObject({ status_code: null, error: expect.stringContaining('not a public address') });
      }
    } finally {
      await strict.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('from the voice runtime during a call', () => {
    let callId: number;
    let toolName: string;
    beforeAll(async () => {
      const tool = await newTool('POST', '/book', { name: 'reserve' });
      toolName = tool.name;
      const assistant = (await t.request('POST', '/api/user/assistant', { token: owner.token, body: { ...requiredAssistantSettings, tool_ids: [tool.id] } }))
        .body.data.id;
      callId = await openCall(t.app, { user_id: owner.id, assistant_id: assistant });
    });
    const invoke = (name: string, body: object, signature?: string, call = callId) => {
      const raw = JSON.stringify(body);
      return t.request('POST', `/api/telephony/calls/${call}/tools/${name}`, { body: raw, headers: { 'x-signature': signature ?? sign(raw, SECRET) } });
    };

    it("runs the assistant's tool and records the run on the call", async () => {
      const res = await invoke(toolName, { arguments: args });
      expect(res).toMatchObject({ status: 200, body: { status_code: 201, body: { ok: true, method: 'POST' } } });
      const events = await t.app.get<EventStore>(EVENT_STORE).readStream(`call-${callId}`);
      expect(events.at(-1)).toMatchObject({
        type: 'CallToolInvoked',
        data: { call_id: callId, tool_name: 'reserve', arguments: args, status_code: 201, error: null },
      });
    });

    it('refuses an unsigned request, a tool the assistant does not have, an unknown call and bad arguments', async () => {
      expect(await invoke(toolName, { arguments: args }, 'sha256=00')).toMatchObject({ status: 401, body: { message: 'Invalid signature.' } });
      expect(await invoke('book_room', { arguments: args })).toMatchObject({ status: 404, body: { message: 'Tool not found' } });
      expect(await invoke(toolName, { arguments: args }, undefined, 999999)).toMatchObject({ status: 404, body: { message: 'Call not found' } });
      expect(await invoke(toolName, { arguments: { city: 'x' } })).toMatchObject({ status: 422 });
    });
  });
});
