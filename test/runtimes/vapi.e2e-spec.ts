import { ManualClock } from '../../src/shared/clock';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { EVERY_DAY } from '../support/dialing-world';
import { eventually } from '../support/fake-provider';
import { FakeVapi, VapiScript } from '../support/fake-vapi';
import { Receiver } from '../support/receiver';
import { runtimeAssistant } from '../support/runtime-assistant';
import { startTestApp, TestApp } from '../support/test-app';

const KEY = 'vapi-private-key';
const SECRET = 'vapi-webhook-secret';
const FROM = '+12015550900';

/** docs/real-calls.md: the campaigns dial through Vapi, each call a transient assistant, and Vapi's messages move the calls. */
describe('DIALER=vapi', () => {
  let t: TestApp;
  let vapi: FakeVapi;
  let receiver: Receiver;
  let token: string;
  let assistantId: number;
  const scripts: Record<string, VapiScript[]> = {};
  const clock = new ManualClock(new Date('2026-06-01T15:00:00Z'));
  const eventsUrl = () => `${t.url}/api/telephony/vapi/events`;

  beforeAll(async () => {
    receiver = await new Receiver(() => ({ status: 200, body: { booked: true, slot: 'Tue 10:00' } })).start();
    vapi = new FakeVapi(KEY, [{ id: 'pn-main', number: FROM }], (to, nth) => scripts[to]?.[nth - 1] ?? { endedReason: 'customer-ended-call' });
    const url = await vapi.start();
    const env = { DIALER: 'vapi', VAPI_API_KEY: KEY, VAPI_WEBHOOK_SECRET: SECRET, VAPI_BASE_URL: url, DIAL_INTERVAL_MS: '30', DEFAULT_QUIET_HOURS: 'none' };
    t = await startTestApp({ ...env, ALLOW_PRIVATE_TARGETS: 'true' }, { clock });
    ({ token } = await t.createUser());
    assistantId = await runtimeAssistant(t, token, FROM, receiver.url, {
      'end_call_tool.description': 'Ends the call',
      is_webhook_active: true,
      webhook_url: `${receiver.url}/hook`,
    });
  });
  afterAll(async () => {
    await t.close();
    await vapi.stop();
    await receiver.stop();
  });

  const campaignWith = async (numbers: string[]) => {
    const created = await t.request('POST', '/api/user/campaigns', {
      token,
      body: {
        name: 'Vapi',
        assistant_id: assistantId,
        calling_hours: { start: '00:00', end: '24:00' },
        calling_days: EVERY_DAY,
        max_retries: 1,
        retry_interval: 60,
      },
    });
    const id = created.body.data.id as number;
    for (const phone_number of numbers)
      await t.request('POST', '/api/user/lead', { token, body: { campaign_id: id, phone_number, variables: { first_name: 'Ann' } } });
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: id, action: 'start' } });
    return id;
  };
  const callsOf = async (campaignId: number) => (await t.request('GET', `/api/user/calls?campaign_id=${campaignId}&per_page=100`, { token })).body.data;
  const leadsOf = async (campaignId: number) => (await t.request('GET', `/api/user/leads?campaign_id=${campaignId}`, { token })).body;
  const ended = (campaignId: number, count: number) =>
    eventually(
      async () => {
        const calls = await callsOf(campaignId);
        return (
          calls.length >= count && calls.every((c: { status: string }) => !['initiated', 'ringing', 'in-progress'].includes(c.status)) && vapi.idle && calls
        );
      },
      15_000,
      'the Vapi calls to end',
    );

  it('places each call with a transient assistant and takes every terminal status from the end-of-call report', async () => {
    const table: Array<[string, VapiScript, Record<string, unknown>]> = [
      ['+12015550901', { endedReason: 'customer-ended-call' }, { status: 'ended_by_customer', answered_by: 'human', duration: 42, failure_reason: null }],
      ['+12015550902', { endedReason: 'assistant-ended-call' }, { status: 'ended_by_assistant' }],
      ['+12015550903', { endedReason: 'voicemail' }, { status: 'ended', answered_by: 'machine' }],
      ['+12015550904', { endedReason: 'customer-busy', neverAnswered: true }, { status: 'busy', duration: 0 }],
      ['+12015550905', { endedReason: 'customer-did-not-answer', neverAnswered: true }, { status: 'no-answer' }],
      [
        '+12015550906',
        { endedReason: 'call.start.error-get-transport', neverAnswered: true },
        { status: 'failed', failure_reason: 'vapi: call.start.error-get-transport' },
      ],
      ['+12015550907', { endedReason: 'call.in-progress.twilio-completed-call' }, { status: 'completed' }],
    ];
    for (const [number, script] of table) scripts[number] = [script, script];
    const campaign = await campaignWith(table.map(([n]) => n));
    const calls = await ended(campaign, table.length);
    for (const [number, , expected] of table) {
      const call = calls.find((c: { client_phone_number: string }) => c.client_phone_number === number);
      expect([number, call]).toEqual([
        number,
        expect.objectContaining({ provider: 'vapi', provider_call_id: expect.stringMatching(/vapi-call$/), ...expected }),
      ]);
    }
    const answered = calls.find((c: { client_phone_number: string }) => c.client_phone_number === '+12015550901');
    expect(answered).toMatchObject({ transcript: 'AI: Hello!\nUser: Hi.', total_cost: 0.12 });
    const sent = vapi.calls.find((c) => c.body.customer.number === '+12015550901')!.body;
    expect(sent).toEqual({
      phoneNumberId: 'pn-main',
      customer: { number: '+12015550901' },
      assistantOverrides: { variableValues: { first_name: 'Ann' } },
      assistant: expect.objectContaining({
        name: 'Ada',
        firstMessage: 'Hello!',
        firstMessageMode: 'assistant-speaks-first',
        model: {
          provider: 'openai',
          model: 'gpt-4o',
          temperature: expect.any(Number),
          messages: [{ role: 'system', content: 'You are helpful.' }],
          tools: [
            {
              type: 'function',
              function: {
                name: 'book_slot',
                description: 'Books a slot',
                parameters: { type: 'object', properties: { day: { type: 'string', description: 'The day' } } },
              },
              // Vapi waits 20 s unless told (its Server.timeoutSeconds): the slowest tool's timeout and a margin.
              server: { url: eventsUrl(), headers: { 'X-Vapi-Secret': SECRET }, timeoutSeconds: 20 },
            },
            { type: 'endCall' },
          ],
        },
        voice: { provider: '11labs', voiceId: '21m00Tcm4TlvDq8ikWAM' },
        transcriber: { provider: 'deepgram', language: 'en-US' },
        maxDurationSeconds: 300,
        artifactPlan: { recordingEnabled: true },
        analysisPlan: {
          structuredDataPlan: { enabled: true, schema: { type: 'object', properties: { slot: { type: 'string', description: 'The slot booked' } } } },
          successEvaluationPlan: { enabled: true },
        },
        metadata: { call_id: answered.id },
        server: { url: eventsUrl(), headers: { 'X-Vapi-Secret': SECRET }, timeoutSeconds: 20 },
      }),
    });
    // The lead's round is recorded by a reactor after its call ends: read once it has caught up.
    const lead = async () => (await leadsOf(campaign)).find((l: { phone_number: string }) => l.phone_number === '+12015550901');
    await eventually(async () => (await lead()).status !== 'created', 15_000, 'the lead to leave created');
    expect(await lead()).toMatchObject({ status: 'completed', attempts: 1 });
    expect(vapi.unauthorised).toEqual([]);
  });

  it("lands the runtime's analysis in the call's variables and evaluation, dropping a value of the wrong type", async () => {
    scripts['+12015550911'] = [
      {
        endedReason: 'customer-ended-call',
        report: { analysis: { structuredData: { slot: 'Tue 10:00', other: 'x' }, successEvaluation: true, summary: 'Booked Tuesday.' } },
      },
    ];
    scripts['+12015550912'] = [{ endedReason: 'customer-ended-call', report: { analysis: { structuredData: { slot: 10 } } } }];
    const campaign = await campaignWith(['+12015550911', '+12015550912']);
    const calls = await ended(campaign, 2);
    const first = calls.find((c: { client_phone_number: string }) => c.client_phone_number === '+12015550911');
    expect(first).toMatchObject({ variables: { first_name: 'Ann', slot: 'Tue 10:00' }, evaluation: { success: true, summary: 'Booked Tuesday.' } });
    expect(first.variables.other).toBeUndefined();
    // The post-call webhook (docs/api.md) carries them.
    const hook = await eventually(
      () => receiver.to('/hook').find((r) => (r.body as { event: string; call?: { id: number } }).call?.id === first.id),
      10_000,
      'the post-call webhook',
    );
    expect((hook.body as { call: object }).call).toMatchObject({ variables: { slot: 'Tue 10:00' }, evaluation: { success: true, summary: 'Booked Tuesday.' } });
    expect(calls.find((c: { client_phone_number: string }) => c.client_phone_number === '+12015550912').variables).toEqual({ first_name: 'Ann' });
  });

  it('uses no attempt when Vapi answers 429 or ends a call for its concurrency, and fails the call with the status and message of any other refusal', async () => {
    scripts['+12015550921'] = [{ refuse: 429, retryAfter: '120', message: 'Over Concurrency Limit.' }];
    scripts['+12015550922'] = [{ refuse: 500, message: 'Internal server error' }, { refuse: 500 }];
    scripts['+12015550923'] = [{ endedReason: 'call.start.error-subscription-concurrency-limit-reached', neverAnswered: true }];
    const campaign = await campaignWith(['+12015550921', '+12015550922', '+12015550923']);
    const calls = await ended(campaign, 3);
    expect(calls.find((c: { client_phone_number: string }) => c.client_phone_number === '+12015550923')).toMatchObject({
      status: 'failed',
      provider_call_id: expect.any(String),
      failure_reason: 'vapi: call.start.error-subscription-concurrency-limit-reached',
    });
    const busy = calls.find((c: { client_phone_number: string }) => c.client_phone_number === '+12015550921');
    expect(busy).toMatchObject({
      status: 'failed',
      provider: 'vapi',
      provider_call_id: null,
      failure_reason: 'dial refused: vapi answered 429: Over Concurrency Limit.',
    });
    const refused = calls.find((c: { client_phone_number: string }) => c.client_phone_number === '+12015550922');
    expect(refused).toMatchObject({ status: 'failed', failure_reason: 'dial refused: vapi answered 500: Internal server error' });
    const leads = await eventually(
      async () => {
        const found = await leadsOf(campaign);
        return found.every((l: { next_attempt_at: string | null }) => l.next_attempt_at !== null) && found;
      },
      10_000,
      'the leads to take their calls',
    );
    const waiting = leads.find((l: { phone_number: string }) => l.phone_number === '+12015550921');
    expect(waiting).toMatchObject({ status: 'created', attempts: 0 });
    expect(Date.parse(waiting.next_attempt_at) - clock.now().getTime()).toBe(120_000);
    // Ended by Vapi for its concurrency limit: no attempt either, due again in 60 s.
    const limited = leads.find((l: { phone_number: string }) => l.phone_number === '+12015550923');
    expect(limited).toMatchObject({ status: 'created', attempts: 0 });
    expect(Date.parse(limited.next_attempt_at) - clock.now().getTime()).toBe(60_000);
    expect(leads.find((l: { phone_number: string }) => l.phone_number === '+12015550922')).toMatchObject({ attempts: 1 });
  });

  it('runs tool calls by name, records them on the call, and names an unknown tool', async () => {
    scripts['+12015550931'] = [{ silent: true }];
    const campaign = await campaignWith(['+12015550931']);
    const call = await eventually(
      async () => (await callsOf(campaign)).find((c: { provider_call_id: string | null }) => c.provider_call_id),
      10_000,
      'the call',
    );
    const ref = { id: call.provider_call_id };
    const answer = await vapi.send(eventsUrl(), SECRET, {
      type: 'tool-calls',
      call: ref,
      toolCallList: [
        { id: 'tc-1', type: 'function', function: { name: 'book_slot', arguments: '{"day":"Tuesday"}' } },
        { id: 'tc-2', type: 'function', function: { name: 'fly_away', arguments: {} } },
      ],
    });
    expect(answer).toEqual({
      status: 200,
      body: {
        results: [
          { toolCallId: 'tc-1', name: 'book_slot', result: JSON.stringify({ booked: true, slot: 'Tue 10:00' }) },
          { toolCallId: 'tc-2', name: 'fly_away', error: 'Unknown tool fly_away.' },
        ],
      },
    });
    expect(receiver.received.at(-1)!.body).toEqual({ day: 'Tuesday' });
    const history = (await t.request('GET', `/api/user/campaigns/${campaign}/history?limit=100`, { token })).body.data;
    expect(history.some((e: { type: string; data: { tool_name?: string } }) => e.type === 'CallToolInvoked' && e.data.tool_name === 'book_slot')).toBe(true);
    await vapi.send(eventsUrl(), SECRET, { type: 'end-of-call-report', endedReason: 'customer-ended-call', call: ref });
  });

  it('refuses a bad or missing secret and an unknown call, recording nothing, and lets repeated or late messages change nothing', async () => {
    scripts['+12015550941'] = [{ endedReason: 'customer-ended-call' }];
    const campaign = await campaignWith(['+12015550941']);
    const [call] = await ended(campaign, 1);
    const ref = { id: call.provider_call_id };
    for (const secret of ['wrong', undefined, `${SECRET}x`, '']) {
      expect(await vapi.send(eventsUrl(), secret, { type: 'status-update', status: 'ringing', call: ref })).toEqual({
        status: 401,
        body: { message: 'Invalid signature.' },
      });
    }
    expect(await vapi.send(eventsUrl(), SECRET, { type: 'status-update', status: 'ringing', call: { id: 'someone-else' } })).toEqual({
      status: 404,
      body: { message: 'Call not found.' },
    });
    expect((await vapi.send(eventsUrl(), SECRET, { type: 'status-update', status: 'in-progress', call: ref })).status).toBe(200);
    expect((await vapi.send(eventsUrl(), SECRET, { type: 'end-of-call-report', endedReason: 'customer-busy', call: ref })).status).toBe(200);
    expect((await vapi.send(eventsUrl(), SECRET, { type: 'conversation-update', call: ref })).body).toEqual({});
    expect((await t.request('GET', `/api/user/calls/${call.id}`, { token })).body).toMatchObject({ status: 'ended_by_customer', duration: 42 });
  });

  it("answers an inbound call's assistant-request with the assistant holding the number, and records the call", async () => {
    const inbound = await vapi.send(eventsUrl(), SECRET, {
      type: 'assistant-request',
      call: { id: 'inbound-vapi-1', type: 'inboundPhoneCall', customer: { number: '+12015550951' }, phoneNumber: { number: FROM } },
    });
    expect(inbound.status).toBe(200);
    expect(inbound.body.assistant).toMatchObject({ name: 'Ada', firstMessage: 'Hello!', server: { url: eventsUrl() } });
    const callId = inbound.body.assistant.metadata.call_id;
    expect((await t.request('GET', `/api/user/calls/${callId}`, { token })).body).toMatchObject({
      type: 'inbound',
      provider: 'vapi',
      provider_call_id: 'inbound-vapi-1',
    });
    // Replayed (a retry, or an attacker repeating it), at once and racing: the first call's answer, no second call.
    const callsBefore = (await t.request('GET', '/api/user/calls?per_page=100', { token })).body.total;
    const replayed = { type: 'assistant-request', call: { id: 'inbound-vapi-1', customer: { number: '+12015550951' }, phoneNumber: { number: FROM } } };
    const replays = await Promise.all([1, 2, 3].map(() => vapi.send(eventsUrl(), SECRET, replayed)));
    for (const replay of replays) expect(replay.body.assistant.metadata.call_id).toBe(callId);
    expect((await t.request('GET', '/api/user/calls?per_page=100', { token })).body.total).toBe(callsBefore);
    const racing = { type: 'assistant-request', call: { id: 'inbound-vapi-2', customer: { number: '+12015550953' }, phoneNumber: { number: FROM } } };
    const raced = await Promise.all([1, 2, 3, 4].map(() => vapi.send(eventsUrl(), SECRET, racing)));
    expect(new Set(raced.map((answer) => answer.body.assistant.metadata.call_id)).size).toBe(1);
    expect((await t.request('GET', '/api/user/calls?per_page=100', { token })).body.total).toBe(callsBefore + 1);
    const nobody = await vapi.send(eventsUrl(), SECRET, {
      type: 'assistant-request',
      call: { id: 'x', customer: { number: '+12015550952' }, phoneNumber: { number: '+12015550999' } },
    });
    expect(nobody).toEqual({ status: 200, body: { error: 'Phone number not found.' } });
  });
});

/**
 * docs/real-calls.md: what a user may save, Vapi can place. The fake refuses what Vapi's documents
 * refuse (a name over 40, a language its Deepgram list lacks, a model outside its provider's list),
 * and lists 1,000 numbers a page, the assistant's number past the first page.
 */
describe('DIALER=vapi as Vapi defines it', () => {
  let t: TestApp;
  let vapi: FakeVapi;
  let token: string;
  const OURS = '+12015550960';

  beforeAll(async () => {
    const others = Array.from({ length: 1_050 }, (_, i) => ({
      id: `pn-${i}`,
      number: `+1646555${String(i).padStart(4, '0')}`,
      createdAt: `2026-05-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`,
    }));
    vapi = new FakeVapi(KEY, [{ id: 'pn-oldest', number: OURS, createdAt: '2026-01-01T00:00:00.000Z' }, ...others], () => ({
      endedReason: 'customer-ended-call',
    }));
    const env = {
      DIALER: 'vapi',
      VAPI_API_KEY: KEY,
      VAPI_WEBHOOK_SECRET: SECRET,
      VAPI_BASE_URL: await vapi.start(),
      DIAL_INTERVAL_MS: '30',
      DEFAULT_QUIET_HOURS: 'none',
    };
    t = await startTestApp({ ...env, ALLOW_PRIVATE_TARGETS: 'true' });
    ({ token } = await t.createUser());
  });
  afterAll(async () => {
    await t.close();
    await vapi.stop();
  });

  it('maps a long name, a language and a Claude model as Vapi takes them, waits for the customer, and finds a number past the first page', async () => {
    const number = (await t.request('POST', '/api/user/phone-numbers', { token, body: { phone_number: OURS } })).body.data.id;
    const tool = (
      await t.request('POST', '/api/user/tools', {
        token,
        body: { name: 'slow_lookup', description: 'Looks up slowly', endpoint: 'https://crm.example.com/', method: 'POST', timeout: 30 },
      })
    ).body.data.id;
    const body = {
      ...requiredAssistantSettings,
      assistant_name: 'Ada from the Acme Dental Clinic, Springfield office',
      language: 'Spanish',
      llm_model: 'claude-sonnet-4-6',
      who_speaks_first: 'Customer',
      phone_number_id: number,
      tool_ids: [tool],
    };
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body })).body.data.id;
    const campaign = (
      await t.request('POST', '/api/user/campaigns', {
        token,
        body: { name: 'Mapped', assistant_id: assistant, calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY },
      })
    ).body.data.id;
    await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: '+12015550961' } });
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    await eventually(() => vapi.calls.length === 1, 10_000, 'the call at Vapi');
    expect(vapi.refused).toEqual([]);
    const sent = vapi.calls[0].body;
    expect(sent.phoneNumberId).toBe('pn-oldest');
    expect(sent.assistant.name).toBe('Ada from the Acme Dental Clinic, Springf'); // 40 characters
    expect(sent.assistant.transcriber).toEqual({ provider: 'deepgram', language: 'es' });
    expect(sent.assistant.model).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
    expect(sent.assistant.firstMessageMode).toBe('assistant-waits-for-user');
    expect(sent.assistant).not.toHaveProperty('firstMessage');
    expect(sent.assistant.server.timeoutSeconds).toBe(35);
    expect(vapi.lists.filter((l) => l.startsWith('GET /phone-number')).length).toBe(2);
  });

  it('refuses at save a model Vapi lists under no provider, naming Vapi', async () => {
    const refused = await t.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, llm_model: 'my-own-finetune' } });
    expect(refused).toMatchObject({
      status: 422,
      body: { errors: { llm_model: ['The llm model field must be a model Vapi offers from OpenAI, Anthropic or Google (DIALER=vapi).'] } },
    });
  });

  it('answers an inbound call to a saved Vapi number, named by the message itself', async () => {
    const inbound = await vapi.send(`${t.url}/api/telephony/vapi/events`, SECRET, {
      type: 'assistant-request',
      phoneNumber: { id: 'pn-oldest', number: OURS },
      call: { id: 'inbound-saved-1', type: 'inboundPhoneCall', customer: { number: '+12015550962' }, phoneNumberId: 'pn-oldest' },
    });
    expect(inbound.body.assistant).toMatchObject({ transcriber: { language: 'es' }, model: { provider: 'anthropic' } });
  });
});

/** docs/real-calls.md: VAPI_MAX_CONCURRENT_CALLS holds across every campaign. */
describe('DIALER=vapi at its concurrency cap', () => {
  let t: TestApp;
  let vapi: FakeVapi;
  let token: string;

  beforeAll(async () => {
    vapi = new FakeVapi(KEY, [{ id: 'pn-cap', number: FROM }], () => ({ silent: true }));
    const env = { DIALER: 'vapi', VAPI_API_KEY: KEY, VAPI_WEBHOOK_SECRET: SECRET, VAPI_BASE_URL: await vapi.start(), VAPI_MAX_CONCURRENT_CALLS: '2' };
    t = await startTestApp({ ...env, DIAL_INTERVAL_MS: '30', DEFAULT_QUIET_HOURS: 'none' });
    ({ token } = await t.createUser());
  });
  afterAll(async () => {
    await t.close();
    await vapi.stop();
  });

  it('keeps two calls in flight across two campaigns, the other leads waiting with no attempt used, and places the next when one ends', async () => {
    const number = (await t.request('POST', '/api/user/phone-numbers', { token, body: { phone_number: FROM } })).body.data.id;
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, phone_number_id: number } })).body.data.id;
    const leads: string[] = [];
    for (const name of ['One', 'Two']) {
      const body = { name, assistant_id: assistant, calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY };
      const campaign = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id;
      for (let i = 0; i < 3; i++) {
        const phone_number = `+1201555097${leads.length}`;
        leads.push(phone_number);
        await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number } });
      }
      await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    }
    await eventually(() => vapi.calls.length === 2, 10_000, 'two calls at Vapi');
    await new Promise((r) => setTimeout(r, 400));
    expect(vapi.dialsReceived).toHaveLength(2);
    const listed = (await t.request('GET', '/api/user/leads?per_page=100', { token })).body;
    // Two in flight (no next attempt while on a call), four due and waiting; none has used an attempt.
    expect(listed.filter((l: { next_attempt_at: string | null }) => l.next_attempt_at !== null)).toHaveLength(4);
    expect(listed.every((l: { attempts: number }) => l.attempts === 0)).toBe(true);
    const ending = vapi.calls[0];
    const answer = await vapi.send(`${t.url}/api/telephony/vapi/events`, SECRET, {
      type: 'end-of-call-report',
      endedReason: 'customer-ended-call',
      call: { id: ending.id },
    });
    expect(answer.status).toBe(200);
    await eventually(() => vapi.calls.length === 3, 10_000, 'a third call once one ended');
    await new Promise((r) => setTimeout(r, 400));
    expect(vapi.dialsReceived).toHaveLength(3);
  });
});
