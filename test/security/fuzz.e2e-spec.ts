import fc from 'fast-check';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { sign as signBody } from '../../src/shared/signature';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { bodyText, pathId, queryText } from '../support/fuzz-bodies';
import { TestApp, startTestApp } from '../support/test-app';
import { httpRuntimeEnv } from '../support/http-runtime';

const SECRET = 'fuzz-telephony-secret';
/** Cases per route and run; with the routes below, thousands a run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

const ASSISTANT_FIELDS = [
  ...Object.keys(requiredAssistantSettings),
  ...'phone_number_id tool_ids endpoint_type endpoint_sensitivity interrupt_sensitivity ambient_sound_volume post_call_evaluation send_webhook_only_on_completed include_recording_in_webhook is_webhook_active webhook_url inbound_webhook_url use_min_interrupt_words min_interrupt_words variables post_call_schema end_call_tool.description llm_temperature voice_stability voice_similarity speech_speed allow_interruptions filler_audios re_engagement_interval max_call_duration max_silence_duration end_call_on_voicemail noise_cancellation record_call who_speaks_first'.split(
    ' ',
  ),
];
const CAMPAIGN_FIELDS = [
  ...'name assistant_id max_retries retry_delay_seconds calling_hours calling_days max_concurrent_calls'.split(' '),
  ...'window_timezone holidays retry_policy max_calls_per_minute failure_breaker'.split(' '),
];
const LEAD_FIELDS = ['phone_number', 'campaign_id', 'variables', 'allow_dupplicate', 'secondary_contacts', 'status', 'timezone'];
const TOOL_FIELDS = ['name', 'description', 'endpoint', 'method', 'timeout', 'headers', 'schema'];
const CALL_EVENT_FIELDS = [
  'status',
  'answered_by',
  'duration',
  'transcript',
  'recording_url',
  'carrier_cost',
  'total_cost',
  'variables',
  'evaluation',
  'opt_out',
];

interface Sent {
  method: string;
  path: string;
  body?: string;
  telephony?: boolean;
}

/** What every answer to any request must be (docs/api.md). */
function checkAnswer(sent: Sent, status: number, text: string, writtenOnRefusal: boolean) {
  const where = `${sent.method} ${sent.path} ${sent.body ?? ''}`.slice(0, 600);
  if (status >= 500) throw new Error(`${status} for ${where}: ${text.slice(0, 300)}`);
  if (/node_modules|\.[jt]s:\d+|\n\s+at /.test(text)) throw new Error(`internals shown for ${where}: ${text.slice(0, 300)}`);
  if (status < 400) return;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${status} without a JSON body for ${where}: ${text.slice(0, 200)}`);
  }
  if (typeof body?.message !== 'string' || !body.message) throw new Error(`${status} without a message for ${where}: ${text.slice(0, 200)}`);
  if ('errors' in body) {
    const valid =
      body.errors && typeof body.errors === 'object' && Object.values(body.errors).every((m) => Array.isArray(m) && m.every((s) => typeof s === 'string'));
    if (!valid) throw new Error(`errors not {field: [messages]} for ${where}: ${text.slice(0, 200)}`);
  }
  if (writtenOnRefusal) throw new Error(`${status} for ${where}, yet the store was written`);
}

describe('fuzzing every route (docs/api.md)', () => {
  let t: TestApp;
  let token: string;
  let store: EventStore;
  const ids = {
    assistant: [] as number[],
    campaign: [] as number[],
    lead: [] as number[],
    tool: [] as number[],
    number: [] as number[],
    call: [] as number[],
    leadImport: [] as number[],
    listed: [] as string[],
    member: [] as number[],
    apiKey: [] as number[],
  };

  beforeAll(async () => {
    t = await startTestApp({ ...httpRuntimeEnv(SECRET), LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent' }, { background: false });
    // docs/teams.md: the suite acts as an admin member of the organisation, not as the account that founded it.
    const owner = await t.createUser(undefined, 1000);
    const addMember = async (email: string, role: string) =>
      (await t.request('POST', '/api/user/members', { token: owner.token, body: { email, role } })).body.data;
    ({ token } = await addMember('fuzz-admin@example.com', 'admin'));
    ids.member.push((await addMember('fuzz-viewer@example.com', 'viewer')).id);
    store = t.app.get<EventStore>(EVENT_STORE);
    const post = async (path: string, body: object) => (await t.request('POST', path, { token, body })).body.data;
    ids.apiKey.push((await post('/api/user/api-keys', { name: 'fuzz', scopes: ['read'] })).id);
    ids.number.push((await post('/api/user/phone-numbers', { phone_number: '+12015550100' })).id);
    ids.assistant.push((await post('/api/user/assistant', requiredAssistantSettings)).id);
    ids.campaign.push((await post('/api/user/campaigns', { name: 'Fuzz', assistant_id: ids.assistant[0] })).id);
    ids.lead.push((await post('/api/user/lead', { campaign_id: ids.campaign[0], phone_number: '+12015550101' })).id);
    ids.tool.push((await post('/api/user/tools', { name: 'lookup', description: 'd', endpoint: 'http://127.0.0.1:9/x', method: 'POST' })).id);
    const inbound = await t.request('POST', '/api/telephony/inbound', {
      body: JSON.stringify({ from: '+12015550199', to: '+12015550100' }),
      headers: { 'x-signature': signBody(JSON.stringify({ from: '+12015550199', to: '+12015550100' }), SECRET) },
    });
    if (inbound.body?.call_id) ids.call.push(inbound.body.call_id);
    await post('/api/user/dnc', { phone_numbers: ['+12015550178'] });
    ids.listed.push(encodeURIComponent('+12015550178'));
    const imported = await fetch(`${t.url}/api/user/campaigns/${ids.campaign[0]}/leads/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv', accept: 'application/json' },
      body: 'phone_number,name\n+12015550179,Ann\n',
    });
    ids.leadImport.push(((await imported.json()) as { data: { id: number } }).data.id);
    ids.call.push(1);
  });
  afterAll(() => t.close());

  async function send(sent: Sent) {
    const before = await store.headPosition();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (sent.telephony) headers['x-signature'] = signBody(sent.body ?? '', SECRET);
    else headers.authorization = `Bearer ${token}`;
    if (sent.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${t.url}${sent.path}`, { method: sent.method, headers, body: sent.body });
    const text = await res.text();
    checkAnswer(sent, res.status, text, res.status >= 400 && (await store.headPosition()) !== before);
  }

  const bodies: Array<[string, string, (id: string) => string, Record<string, unknown>, string[], keyof typeof ids | null]> = [
    ['POST', 'lead create', () => '/api/user/lead', { phone_number: '+12015550123', campaign_id: 1, variables: { a: 1 } }, LEAD_FIELDS, null],
    ['PUT', 'lead update', (id) => `/api/user/leads/${id}`, { status: 'completed', variables: { b: 'x' } }, LEAD_FIELDS, 'lead'],
    ['POST', 'assistant create', () => '/api/user/assistant', { ...requiredAssistantSettings }, ASSISTANT_FIELDS, null],
    ['PUT', 'assistant update', (id) => `/api/user/assistant/${id}`, { speech_speed: 1 }, ASSISTANT_FIELDS, 'assistant'],
    [
      'POST',
      'campaign create',
      () => '/api/user/campaigns',
      { name: 'C', assistant_id: 1, calling_hours: { start: '09:00', end: '17:00' } },
      CAMPAIGN_FIELDS,
      null,
    ],
    ['PUT', 'campaign update', (id) => `/api/user/campaigns/${id}`, { max_retries: 2 }, CAMPAIGN_FIELDS, 'campaign'],
    ['POST', 'campaign status', () => '/api/user/campaigns/update-status', { campaign_id: 1, action: 'stop' }, ['campaign_id', 'action'], null],
    [
      'POST',
      'tool create',
      () => '/api/user/tools',
      { name: 'find_it', description: 'd', endpoint: 'https://example.com/t', method: 'GET' },
      TOOL_FIELDS,
      null,
    ],
    ['PUT', 'tool update', (id) => `/api/user/tools/${id}`, { timeout: 5 }, TOOL_FIELDS, 'tool'],
    ['POST', 'tool test', (id) => `/api/user/tools/${id}/test`, { arguments: {} }, ['arguments'], 'tool'],
    ['POST', 'phone number create', () => '/api/user/phone-numbers', { phone_number: '+12015550150', label: 'x' }, ['phone_number', 'label'], null],
    ['POST', 'webhook redelivery', (id) => `/api/user/webhook-deliveries/${id}-ended/redeliver`, {}, [], 'call'],
    ['POST', 'do-not-call add', () => '/api/user/dnc', { phone_numbers: ['+12015550177'], reason: 'asked' }, ['phone_numbers', 'reason'], null],
    ['PUT', 'settings update', () => '/api/user/settings', { quiet_hours: { start: '09:00', end: '20:00' } }, ['quiet_hours'], null],
    ['POST', 'member add', () => '/api/user/members', { email: 'fz@example.com', role: 'viewer' }, ['email', 'role'], null],
    ['PUT', 'member update', (id) => `/api/user/members/${id}`, { role: 'editor' }, ['role'], 'member'],
    ['POST', 'API key create', () => '/api/user/api-keys', { name: 'k', scopes: ['read', 'leads:write'] }, ['name', 'scopes', 'expires_at'], null],
  ];
  it.each(bodies)('%s %s: never a 5xx, always the error shape, nothing written when refused', async (method, _name, path, valid, fields, idKind) => {
    const ids$ = idKind ? pathId(ids[idKind]) : fc.constant('');
    await fc.assert(
      fc.asyncProperty(ids$, bodyText(valid, fields), async (id, body) => send({ method, path: path(id), body })),
      { numRuns: RUNS },
    );
  });

  const telephony: Array<[string, (id: string) => string, Record<string, unknown>, string[]]> = [
    ['call event', (id) => `/api/telephony/calls/${id}/events`, { status: 'ringing' }, CALL_EVENT_FIELDS],
    ['call tool', (id) => `/api/telephony/calls/${id}/tools/lookup`, { arguments: {} }, ['arguments']],
    ['inbound', () => '/api/telephony/inbound', { from: '+12015550199', to: '+12015550100' }, ['from', 'to', 'call_id']],
  ];
  it.each(telephony)('telephony %s: never a 5xx, always the error shape, nothing written when refused', async (_name, path, valid, fields) => {
    await fc.assert(
      fc.asyncProperty(pathId(ids.call), bodyText(valid, fields), async (id, body) => send({ method: 'POST', path: path(id), body, telephony: true })),
      { numRuns: RUNS },
    );
  });

  const queries: Array<[string, (id: string) => string, string[], keyof typeof ids | null]> = [
    ['leads', () => '/api/user/leads', ['campaign_id', 'status', 'phone_number'], null],
    ['calls', () => '/api/user/calls', ['status', 'type', 'phone_number', 'assistant_id', 'campaign_id', 'date_from', 'date_to'], null],
    ['campaigns', () => '/api/user/campaigns', [], null],
    ['assistants', () => '/api/user/assistants/get', [], null],
    ['history', (id) => `/api/user/campaigns/${id}/history`, ['after', 'limit', 'as_of'], 'campaign'],
    ['one campaign', (id) => `/api/user/campaigns/${id}`, [], 'campaign'],
    ['one call', (id) => `/api/user/calls/${id}`, [], 'call'],
    ['one tool', (id) => `/api/user/tools/${id}`, [], 'tool'],
    ['one assistant', (id) => `/api/user/assistants/${id}`, [], 'assistant'],
    ['tools', () => '/api/user/tools', [], null],
    ['phone numbers', () => '/api/user/phone-numbers', [], null],
    ['me', () => '/api/user/me', [], null],
    ['voices', () => '/api/user/voices', [], null],
    ['languages', () => '/api/user/languages', [], null],
    ['webhook deliveries', () => '/api/user/webhook-deliveries', ['call_id', 'status'], null],
    ['one webhook delivery', (id) => `/api/user/webhook-deliveries/${id}-ended`, [], 'call'],
    ['do-not-call list', () => '/api/user/dnc', ['phone_number'], null],
    ['settings', () => '/api/user/settings', [], null],
    ['lead imports', () => '/api/user/lead-imports', [], null],
    ['one lead import', (id) => `/api/user/lead-imports/${id}`, [], 'leadImport'],
    ['members', () => '/api/user/members', [], null],
    ['API keys', () => '/api/user/api-keys', [], null],
    ['audit', () => '/api/user/audit', ['actor_type', 'actor_id', 'type', 'date_from', 'date_to', 'page', 'per_page'], null],
  ];
  it.each(queries)('GET %s: never a 5xx, always the error shape', async (_name, path, params, idKind) => {
    const ids$ = idKind ? pathId(ids[idKind]) : fc.constant('');
    await fc.assert(
      fc.asyncProperty(ids$, queryText(params), async (id, query) => send({ method: 'GET', path: `${path(id)}${query}` })),
      { numRuns: RUNS },
    );
  });

  it.each([
    ['lead', (id: string) => `/api/user/leads/${id}`],
    ['assistant', (id: string) => `/api/user/assistant/${id}`],
    ['tool', (id: string) => `/api/user/tools/${id}`],
    ['number', (id: string) => `/api/user/phone-numbers/${id}`],
    ['listed', (id: string) => `/api/user/dnc/${id}`],
    ['apiKey', (id: string) => `/api/user/api-keys/${id}`],
  ] as const)('DELETE %s: never a 5xx, always the error shape, nothing written when refused', async (kind, path) => {
    await fc.assert(
      fc.asyncProperty(pathId([999_999, encodeURIComponent('+12015550199')]), fc.option(bodyText({}, []), { nil: undefined }), async (id, body) =>
        send({ method: 'DELETE', path: path(id), body }),
      ),
      { numRuns: Math.ceil(RUNS / 4) },
    );
    expect(ids[kind].length).toBeGreaterThan(0);
  });
});
