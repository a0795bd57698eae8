import { hash } from 'node:crypto';
import { CallProvider } from '../../src/calls/call.events';
import { SCOPES } from '../../src/access/permissions';
import { ConfigError } from '../../src/shared/config-error';
import { DEFAULT_TELEPHONY_SECRET } from '../../src/voice-runtimes/http/http-settings';
import { loadServiceConfig } from '../../src/service-config';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { sign } from '../../src/shared/signature';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { openCall } from '../support/calls';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * The boundary as an attacker meets it (docs/real-calls.md, docs/teams.md): each request below was once
 * answered; each is now refused and writes nothing, on every DIALER.
 */
const OWN_SECRET = 'attacker-suite-own-telephony-secret';
const CLOSED = 'http://127.0.0.1:9';
const CRM_TOKEN = 'Bearer victim-crm-token-5f1c';
const RUNTIME_SECRETS = { VAPI_API_KEY: 'vapi-key-8d2e', VAPI_WEBHOOK_SECRET: 'vapi-hook-secret-77aa' };
const RUNTIMES: Array<[string, Record<string, string>]> = [
  ['simulated', {}],
  ['http', { DIALER: 'http', DIALER_URL: `${CLOSED}/dial`, TELEPHONY_SECRET: OWN_SECRET }],
  ['vapi', { DIALER: 'vapi', ...RUNTIME_SECRETS, VAPI_BASE_URL: CLOSED }],
  ['retell', { DIALER: 'retell', RETELL_API_KEY: 'retell-key-31bc', RETELL_BASE_URL: CLOSED }],
  [
    'twilio',
    {
      DIALER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: 'twilio-token-a1',
      TWILIO_API_BASE_URL: CLOSED,
      LLM_API_KEY: 'llm-key-9f',
      LLM_BASE_URL: CLOSED,
    },
  ],
];
const RUNTIME_ROUTES: Record<string, string> = {
  vapi: '/api/telephony/vapi/events',
  retell: '/api/telephony/retell/events',
  twilio: '/api/telephony/twilio/status',
};
const VICTIM_NUMBER = '+12015550777';

interface Victim {
  token: string;
  assistantId: number;
  callId: number;
}

async function victimOf(t: TestApp, provider: CallProvider, phoneNumber = VICTIM_NUMBER): Promise<Victim> {
  const user = await t.createUser();
  const as = (method: string, path: string, body?: unknown) => t.request(method, path, { token: user.token, body });
  const number = (await as('POST', '/api/user/phone-numbers', { phone_number: phoneNumber })).body.data;
  const tool = (
    await as('POST', '/api/user/tools', {
      name: 'crm_lookup',
      description: 'Looks a customer up',
      endpoint: 'https://crm.example.com/lookup',
      method: 'POST',
      headers: [{ name: 'Authorization', value: CRM_TOKEN }],
    })
  ).body.data;
  // A model every runtime offers: what a runtime cannot place is refused at save.
  const assistantBody = {
    ...requiredAssistantSettings,
    llm_model: 'gpt-4.1',
    calls_direction: 'receive',
    phone_number_id: number.id,
    tool_ids: [tool.id],
    system_prompt: 'Victim prompt',
  };
  const assistantId = (await as('POST', '/api/user/assistant', assistantBody)).body.data.id;
  const callId = await openCall(t.app, { user_id: user.id, assistant_id: assistantId, provider, client_phone_number: '+12015550188' });
  return { token: user.token, assistantId, callId };
}

describe.each(RUNTIMES)('an attacker with the public default telephony secret, DIALER=%s', (dialer, env) => {
  let t: TestApp;
  let store: EventStore;
  let victim: Victim;

  beforeAll(async () => {
    t = await startTestApp(env, { background: false });
    store = t.app.get<EventStore>(EVENT_STORE);
    victim = await victimOf(t, dialer === 'http' ? 'vapi' : (dialer as CallProvider));
  });
  afterAll(() => t.close());

  const signedWith = (secret: string, path: string, body: unknown) => {
    const raw = JSON.stringify(body);
    return t.request('POST', path, { body: raw, headers: { 'x-signature': sign(raw, secret) } });
  };

  const attacks = () =>
    [
      ['inbound call to another organisation’s number', '/api/telephony/inbound', { call_id: 'forged-1', from: '+12015550123', to: VICTIM_NUMBER }],
      ['forged outcome', `/api/telephony/calls/${victim.callId}/events`, { status: 'completed', total_cost: 9999, transcript: 'forged', opt_out: true }],
      ['another organisation’s tool', `/api/telephony/calls/${victim.callId}/tools/crm_lookup`, { arguments: {} }],
    ] as const;

  it('is refused every request, learns nothing and writes nothing', async () => {
    for (const [name, path, body] of attacks()) {
      const before = await store.headPosition();
      const answer = await signedWith(DEFAULT_TELEPHONY_SECRET, path, body);
      const expected = dialer === 'http' ? { status: 401, body: { message: 'Invalid signature.' } } : { status: 404, body: { message: 'Not found.' } };
      expect({ name, status: answer.status, body: answer.body }).toEqual({ name, ...expected });
      expect(JSON.stringify(answer.body)).not.toMatch(/victim|Victim/);
      expect(await store.headPosition()).toBe(before);
    }
    const call = (await t.request('GET', `/api/user/calls/${victim.callId}`, { token: victim.token })).body;
    expect(call).toMatchObject({ status: 'initiated', total_cost: 0, transcript: null });
    expect((await t.request('GET', '/api/user/dnc', { token: victim.token })).body.total).toBe(0);
  });

  it("finds no other runtime's callback route", async () => {
    for (const [runtime, path] of Object.entries(RUNTIME_ROUTES).filter(([runtime]) => runtime !== dialer)) {
      const answer = await t.request('POST', path, { body: { message: { type: 'assistant-request' } }, headers: { 'x-vapi-secret': 'x' } });
      expect({ runtime, status: answer.status, body: answer.body }).toEqual({ runtime, status: 404, body: { message: 'Not found.' } });
    }
  });

  if (dialer === 'http') {
    it('takes outcomes and tool runs only for calls the HTTP runtime placed, even signed with its own secret', async () => {
      for (const [name, path, body] of attacks().slice(1)) {
        const before = await store.headPosition();
        const answer = await signedWith(OWN_SECRET, path, body);
        expect({ name, status: answer.status, body: answer.body }).toEqual({ name, status: 404, body: { message: 'Call not found' } });
        expect(await store.headPosition()).toBe(before);
      }
      const own = await victimOf(t, 'http', '+12015550778');
      expect((await signedWith(OWN_SECRET, `/api/telephony/calls/${own.callId}/events`, { status: 'ringing' })).status).toBe(200);
    });
  }
});

describe('the built-in telephony secret', () => {
  it('stops a service whose generic runtime would take it (exit 78 names the variable)', () => {
    for (const secret of [undefined, DEFAULT_TELEPHONY_SECRET]) {
      const env = { DIALER: 'http', DIALER_URL: `${CLOSED}/dial`, ...(secret ? { TELEPHONY_SECRET: secret } : {}) };
      expect(() => loadServiceConfig(env)).toThrow(ConfigError);
      expect(() => loadServiceConfig(env)).toThrow(/TELEPHONY_SECRET/);
    }
  });
});

describe('credentials an attacker holds', () => {
  let t: TestApp;
  let store: EventStore;
  let owner: { id: number; token: string; webhook_secret: string };

  beforeAll(async () => {
    t = await startTestApp({ DIALER: 'vapi', ...RUNTIME_SECRETS, VAPI_BASE_URL: CLOSED }, { background: false });
    store = t.app.get<EventStore>(EVENT_STORE);
    owner = await t.createUser();
  });
  afterAll(() => t.close());

  const key = async (token: string, body: object) => t.request('POST', '/api/user/api-keys', { token, body: { name: 'k', ...body } });

  it('a key with members:write mints no all-scope key and adds no member', async () => {
    const narrow = (await key(owner.token, { scopes: ['members:write'] })).body.data;
    const before = await store.headPosition();
    const all = [...SCOPES];
    expect(await key(narrow.token, { scopes: all })).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.', required_scope: 'read' } });
    const member = await t.request('POST', '/api/user/members', { token: narrow.token, body: { email: 'sneaky@example.com', role: 'admin' } });
    expect(member).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
    expect(await store.headPosition()).toBe(before);
    // The email is still free for a member the owner adds.
    expect((await t.request('POST', '/api/user/members', { token: owner.token, body: { email: 'sneaky@example.com', role: 'viewer' } })).status).toBe(201);
  });

  it.each(SCOPES.filter((scope) => scope !== 'members:write'))('a key with %s and members:write makes keys within those two only', async (scope) => {
    const parent = (await key(owner.token, { scopes: [scope, 'members:write'] })).body.data;
    expect(await key(parent.token, { scopes: [scope] })).toMatchObject({ status: 201, body: { data: { scopes: [scope] } } });
    const other = scope === 'read' ? 'dnc:write' : 'read';
    expect(await key(parent.token, { scopes: [scope, other] })).toMatchObject({ status: 403, body: { required_scope: other } });
  });

  it('a key that expires soon makes keys that expire no later', async () => {
    const expiresAt = new Date(Date.now() + 6_000).toISOString();
    const parent = (await key(owner.token, { scopes: ['members:write', 'read'], expires_at: expiresAt })).body.data;
    const child = await key(parent.token, { scopes: ['read'] });
    expect(child).toMatchObject({ status: 201, body: { data: { expires_at: expiresAt } } });
    const later = await key(parent.token, { scopes: ['read'], expires_at: '2099-01-01T00:00:00Z' });
    expect(later).toMatchObject({ status: 422, body: { errors: { expires_at: [expect.stringContaining(expiresAt)] } } });
  });

  it('answers a date no parser reads with 422, never 500', async () => {
    for (const expires_at of ['20300101', '2030-W01-1', '2030-001', '2030-02-30T00:00:00Z']) {
      expect(await key(owner.token, { scopes: ['read'], expires_at })).toMatchObject({ status: 422, body: { errors: { expires_at: expect.any(Array) } } });
    }
  });

  it("records each member's and key's own id as the actor, in history and audit", async () => {
    const editor = (await t.request('POST', '/api/user/members', { token: owner.token, body: { email: 'editor@example.com', role: 'editor' } })).body.data;
    const assistant = (await t.request('POST', '/api/user/assistant', { token: editor.token, body: requiredAssistantSettings })).body.data;
    const campaign = (await t.request('POST', '/api/user/campaigns', { token: editor.token, body: { name: 'By the editor', assistant_id: assistant.id } })).body
      .data;
    const writer = (await key(owner.token, { scopes: ['campaigns:write'] })).body.data;
    await t.request('PUT', `/api/user/campaigns/${campaign.id}`, { token: writer.token, body: { name: 'By the key' } });

    const history = (await t.request('GET', `/api/user/campaigns/${campaign.id}/history`, { token: owner.token })).body.data;
    expect(history.map((e: { type: string; actor: object }) => [e.type, e.actor])).toEqual([
      ['CampaignCreated', { type: 'user', id: editor.id }],
      ['CampaignUpdated', { type: 'api_key', id: writer.id }],
    ]);
    const byEditor = (await t.request('GET', `/api/user/audit?actor_type=user&actor_id=${editor.id}`, { token: owner.token })).body;
    expect(byEditor.data.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['AssistantCreated', 'CampaignCreated']));
    const byOwner = (await t.request('GET', `/api/user/audit?actor_type=user&actor_id=${owner.id}`, { token: owner.token })).body;
    expect(byOwner.data.map((e: { type: string }) => e.type)).not.toContain('CampaignCreated');
  });

  it('never shows a secret once set, in any answer of any read route', async () => {
    const tool = (
      await t.request('POST', '/api/user/tools', {
        token: owner.token,
        body: {
          name: 'crm',
          description: 'Looks up',
          endpoint: 'https://crm.example.com/',
          method: 'GET',
          headers: [{ name: 'Authorization', value: CRM_TOKEN }],
        },
      })
    ).body.data;
    const assistant = (await t.request('POST', '/api/user/assistant', { token: owner.token, body: { ...requiredAssistantSettings, tool_ids: [tool.id] } })).body
      .data;
    await t.request('POST', '/api/user/campaigns', { token: owner.token, body: { name: 'Secrets', assistant_id: assistant.id } });
    const apiKey = (await key(owner.token, { scopes: ['read'] })).body.data;
    const secrets = [
      owner.webhook_secret,
      CRM_TOKEN,
      apiKey.token,
      hash('sha256', apiKey.token, 'hex'),
      owner.token,
      hash('sha256', owner.token, 'hex'),
      ...Object.values(RUNTIME_SECRETS),
    ];

    const doc: any = await (await fetch(`${t.url}/docs-json`)).json();
    const reads = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path, item]) => path.startsWith('/api/user/') && item.get)
      .flatMap(([path]) => (path.includes('{') ? [1, 2, 3].map((id) => path.replace(/\{\w+\}/g, String(id))) : [path]));
    expect(reads.length).toBeGreaterThan(25);
    const found: string[] = [];
    for (const path of reads) {
      for (const accept of ['application/json', 'text/csv', 'application/x-ndjson']) {
        const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${owner.token}`, accept, 'content-type': 'application/json' } });
        const text = await res.text();
        for (const secret of secrets) if (text.includes(secret)) found.push(`${path} (${accept}) shows ${secret.slice(0, 12)}…`);
      }
    }
    const tools = (await t.request('GET', `/api/user/tools/${tool.id}`, { token: owner.token, headers: { 'content-type': 'application/json' } })).body;
    expect(tools.headers).toEqual([{ name: 'Authorization', value: '[secret]' }]);
    expect(found).toEqual([]);
  });
});
