import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ManualClock } from '../../src/shared/clock';
import { APOLOGY } from '../../src/voice-runtimes/twilio/relay/relay-session';
import { EVERY_DAY } from '../support/dialing-world';
import { eventually } from '../support/fake-provider';
import { FakeModel, ModelScript } from '../support/fake-model';
import { FakeTwilio, TwilioScript } from '../support/fake-twilio';
import { Receiver } from '../support/receiver';
import { runtimeAssistant } from '../support/runtime-assistant';
import { startTestApp, TestApp } from '../support/test-app';

const SID = 'AC00000000000000000000000000000001';
const TOKEN = 'twilio-auth-token';
const LLM_KEY = 'sk-model-key';
const FROM = '+12015550800';
const SHARED_KEY_SECRET = 'twilio-shared-key-secret';
/** The catalog voice of the assistants here, as Twilio names it. */
const VOICE = 'ttsProvider="ElevenLabs" voice="21m00Tcm4TlvDq8ikWAM"';

/** The model's next answer, from the conversation so far (docs/real-calls.md's loop). */
function modelScript(body: any): ModelScript {
  const last = body.messages[body.messages.length - 1];
  if (last.role === 'tool') return { text: ['Booked', ' for Tuesday.'] };
  if (last.content === 'I would like Tuesday') return { tool: 'book_slot', args: { day: 'Tuesday' } };
  if (last.content === 'Thanks, bye') return { tool: 'end_call', args: {} };
  if (last.content === 'Break') return { failAfter: ['Well'] };
  if (last.content === 'Stall') return { stall: true };
  if (last.content === 'Overloaded?') return { status: 503 };
  return { text: ['Sure', ', go on.'] };
}

/** docs/real-calls.md: calls placed on Twilio, the conversation run by the service over ConversationRelay on an OpenAI-compatible model. */
describe('DIALER=twilio', () => {
  let t: TestApp;
  let twilio: FakeTwilio;
  let model: FakeModel;
  let receiver: Receiver;
  let token: string;
  let assistantId: number;
  const scripts: Record<string, TwilioScript> = {};
  const clock = new ManualClock(new Date('2026-06-01T15:00:00Z'));

  beforeAll(async () => {
    receiver = await new Receiver(() => ({ status: 200, body: { booked: true } })).start();
    twilio = new FakeTwilio(SID, TOKEN, (to) => scripts[to] ?? { answer: 'human', says: [] });
    model = new FakeModel((body) => modelScript(body));
    model.analysis = { slot: 'Tuesday', success: true, summary: 'Booked Tuesday.' };
    const env = {
      DIALER: 'twilio',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_API_BASE_URL: await twilio.start(),
      LLM_API_KEY: LLM_KEY,
      LLM_BASE_URL: `${await model.start()}/v1`,
      DIAL_INTERVAL_MS: '30',
      LLM_TIMEOUT_SECONDS: '1',
      TWILIO_WEBHOOK_SHARED_KEY_SECRET: SHARED_KEY_SECRET,
    };
    t = await startTestApp(env, { clock });
    ({ token } = await t.createUser());
    assistantId = await runtimeAssistant(t, token, FROM, receiver.url, {
      'end_call_tool.description': 'Ends the call',
      system_prompt: 'You call {{first_name}} about a slot.',
      record_call: true,
      is_webhook_active: true,
      webhook_url: `${receiver.url}/hook`,
    });
  });
  afterAll(async () => {
    await t.close();
    await twilio.stop();
    await model.stop();
    await receiver.stop();
  });

  const campaignWith = async (numbers: string[], assistant = assistantId) => {
    const body = {
      name: 'Twilio',
      assistant_id: assistant,
      calling_hours: { start: '00:00', end: '24:00' },
      calling_days: EVERY_DAY,
      max_retries: 1,
      retry_interval: 60,
    };
    const id = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id as number;
    for (const phone_number of numbers)
      await t.request('POST', '/api/user/lead', { token, body: { campaign_id: id, phone_number, variables: { first_name: 'Ann' } } });
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: id, action: 'start' } });
    return id;
  };
  const callsOf = async (campaignId: number) => (await t.request('GET', `/api/user/calls?campaign_id=${campaignId}&per_page=100`, { token })).body.data;
  const settled = (campaignId: number, count: number, more: (calls: any[]) => boolean = () => true) =>
    eventually(
      async () => {
        const calls = await callsOf(campaignId);
        const over = calls.length >= count && calls.every((c: { status: string }) => !['initiated', 'ringing', 'in-progress'].includes(c.status));
        return over && twilio.idle && more(calls) && calls;
      },
      15_000,
      'the Twilio calls to end',
    );
  const callTo = (calls: any[], number: string) => calls.find((c: { client_phone_number: string }) => c.client_phone_number === number);
  const madeTo = (number: string) => twilio.calls.find((c) => c.params.get('To') === number)!;

  it('runs a whole conversation: text streamed as it comes, a tool run and recorded, end_call, the transcript and the analysis', async () => {
    const number = '+12015550801';
    scripts[number] = { answer: 'human', says: ['I would like Tuesday', 'Thanks, bye', 'never said'] };
    const campaign = await campaignWith([number]);
    const calls = await settled(campaign, 1, (c) => c[0].transcript !== null && c[0].recording_url !== null);
    const made = madeTo(number);
    expect(callTo(calls, number)).toMatchObject({
      status: 'ended_by_assistant',
      provider: 'twilio',
      provider_call_id: made.sid,
      answered_by: 'human',
      duration: expect.any(Number),
      transcript: 'AI: Hello!\nUser: I would like Tuesday\nAI: Booked for Tuesday.\nUser: Thanks, bye',
      variables: expect.objectContaining({ first_name: 'Ann', slot: 'Tuesday' }),
      evaluation: { success: true, summary: 'Booked Tuesday.' },
      failure_reason: null,
    });
    // The dial, as docs/real-calls.md gives it: each callback URL names the call (docs/real-calls.md).
    const params = Object.fromEntries(made.params);
    const id = callTo(calls, number).id;
    const status = `${t.url}/api/telephony/twilio/status?call_id=${id}`;
    expect(params).toMatchObject({ To: number, From: FROM, TimeLimit: '300', Record: 'true', StatusCallback: status });
    expect(made.params.getAll('StatusCallbackEvent')).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    expect(params.RecordingStatusCallback).toBe(`${t.url}/api/telephony/twilio/recording?call_id=${id}`);
    expect(params).toMatchObject({ MachineDetection: 'Enable', AsyncAmd: 'true', AsyncAmdStatusCallback: status });
    const relay = t.url.replace('http', 'ws');
    expect(params.Twiml).toBe(
      `<Response><Connect><ConversationRelay url="${relay}/api/telephony/twilio/relay" welcomeGreeting="Hello!" language="en-US" ${VOICE}>` +
        `<Parameter name="call_id" value="${callTo(calls, number).id}"/></ConversationRelay></Connect></Response>`,
    );
    // The frames: text deltas as the model sent them, each turn closed, then the end.
    expect(made.frames).toEqual([
      { type: 'text', token: 'Booked', last: false },
      { type: 'text', token: ' for Tuesday.', last: false },
      { type: 'text', token: '', last: true },
      { type: 'text', token: '', last: true },
      { type: 'end' },
    ]);
    // The model was asked as docs/real-calls.md says.
    const first = model.turns.find((b) => b.messages.some((m: any) => m.content === 'I would like Tuesday'));
    expect(first).toMatchObject({
      model: 'gpt-4o',
      stream: true,
      messages: [
        { role: 'system', content: 'You call Ann about a slot.' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'I would like Tuesday' },
      ],
    });
    expect(first.tools.map((tool: any) => tool.function.name)).toEqual(['book_slot', 'end_call']);
    expect(model.requests.every((r) => r.authorization === `Bearer ${LLM_KEY}`)).toBe(true);
    // The tool ran as docs/api.md runs tools, recorded on the call.
    expect(receiver.to('/book').map((r) => r.body)).toContainEqual({ day: 'Tuesday' });
    const history = (await t.request('GET', `/api/user/campaigns/${campaign}/history?limit=100`, { token })).body.data;
    expect(history.some((e: { type: string; data: { tool_name?: string } }) => e.type === 'CallToolInvoked' && e.data.tool_name === 'book_slot')).toBe(true);
    // The post-call webhook waited for the conversation's record.
    const hook = await eventually(async () => receiver.to('/hook').find((r) => r.body.call?.client_phone_number === number), 10_000, 'the webhook');
    expect(hook.body.call).toMatchObject({
      status: 'ended_by_assistant',
      transcript: expect.stringContaining('Booked for Tuesday.'),
      evaluation: { success: true, summary: 'Booked Tuesday.' },
    });
  });

  it('ends a call the customer hung up, and takes busy and no-answer from the status callbacks', async () => {
    const [hungUp, busy, silent] = ['+12015550811', '+12015550812', '+12015550813'];
    scripts[hungUp] = { answer: 'human', says: ['Hello?'] };
    scripts[busy] = { busy: true };
    scripts[silent] = { noAnswer: true };
    const campaign = await campaignWith([hungUp, busy, silent]);
    const calls = await settled(campaign, 3, (c) => callTo(c, hungUp)?.transcript !== null);
    expect(callTo(calls, hungUp)).toMatchObject({
      status: 'ended_by_customer',
      answered_by: 'human',
      transcript: 'AI: Hello!\nUser: Hello?\nAI: Sure, go on.',
    });
    expect(callTo(calls, busy)).toMatchObject({ status: 'busy', failure_reason: null });
    expect(callTo(calls, silent)).toMatchObject({ status: 'no-answer' });
  });

  it('hangs up on an answering machine when the assistant ends calls on voicemail', async () => {
    const machine = '+12015550821';
    scripts[machine] = { answer: 'machine', says: ['Leave a message after the tone'] };
    const voicemail = await runtimeAssistant(t, token, '+12015550820', receiver.url, {
      end_call_on_voicemail: true,
      post_call_schema: [],
      post_call_evaluation: false,
    });
    const campaign = await campaignWith([machine], voicemail);
    const calls = await settled(campaign, 1);
    expect(callTo(calls, machine)).toMatchObject({ status: 'ended', answered_by: 'machine' });
    const made = madeTo(machine);
    expect(made.hungUpByService).toBe(true);
    // Hung up by the service, the call keeps the duration Twilio's completed callback gives.
    const completed = made.callbacks.find((c) => c.params.CallStatus === 'completed')!;
    expect(callTo(calls, machine).duration).toBe(Number(completed.params.CallDuration));
    expect(callTo(calls, machine).duration).toBeGreaterThan(0);
    expect(Object.fromEntries(made.params)).toMatchObject({
      MachineDetection: 'Enable',
      AsyncAmd: 'true',
      AsyncAmdStatusCallback: `${t.url}/api/telephony/twilio/status?call_id=${callTo(calls, machine).id}`,
    });
  });

  it('ends the call failed when Twilio refuses the dial, naming its status and message', async () => {
    const refused = '+12015550831';
    scripts[refused] = { refuse: 500 };
    const campaign = await campaignWith([refused]);
    const calls = await settled(campaign, 1);
    expect(callTo(calls, refused)).toMatchObject({
      status: 'failed',
      failure_reason: 'dial refused: twilio answered 500: An internal server error has occurred',
    });
  });

  it("masks the number Twilio's refusal names: the call's reason and the event log hold none of its spellings", async () => {
    const refused = '+12015550832';
    scripts[refused] = { geoPermissions: true };
    const campaign = await campaignWith([refused]);
    const calls = await settled(campaign, 1);
    expect(callTo(calls, refused)).toMatchObject({
      status: 'failed',
      failure_reason:
        'dial refused: twilio answered 400: Account not authorized to call [number]. Perhaps you need to enable some international permissions: https://www.twilio.com/console/voice/calls/geo-permissions/low-risk',
    });
    // The log keeps personal values sealed (docs/privacy.md): a refusal's text must not bring the number back in plain.
    const log = readdirSync(t.dataDir).filter((name) => name.startsWith('events.db'));
    expect(log.length).toBeGreaterThan(0);
    const spellings = [refused, refused.slice(1), refused.slice(2)];
    const found = log.flatMap((name) => spellings.filter((spelling) => readFileSync(join(t.dataDir, name)).includes(spelling)).map((s) => `${name}: ${s}`));
    expect(found).toEqual([]);
  });

  it('apologises and ends the call failed when the model breaks off mid-answer, never leaving the socket hanging', async () => {
    const number = '+12015550841';
    scripts[number] = { answer: 'human', says: ['Break', 'still there?'] };
    const campaign = await campaignWith([number]);
    const calls = await settled(campaign, 1, (c) => c[0].transcript !== null);
    expect(callTo(calls, number)).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/^model failed: /) });
    expect(madeTo(number).frames).toEqual([{ type: 'text', token: 'Well', last: false }, { type: 'text', token: APOLOGY, last: true }, { type: 'end' }]);
  });

  it("ends the call failed when the model answers an error status, naming it with the body's message", async () => {
    const number = '+12015550843';
    scripts[number] = { answer: 'human', says: ['Overloaded?'] };
    const campaign = await campaignWith([number]);
    const calls = await settled(campaign, 1, (c) => c[0].transcript !== null);
    expect(callTo(calls, number)).toMatchObject({
      status: 'failed',
      failure_reason: 'model answered 503: The server had an error while processing your request.',
    });
    expect(madeTo(number).frames).toEqual([{ type: 'text', token: APOLOGY, last: true }, { type: 'end' }]);
  });

  it('ends the call failed when the model stops sending for LLM_TIMEOUT_SECONDS', async () => {
    const number = '+12015550842';
    scripts[number] = { answer: 'human', says: ['Stall'] };
    const campaign = await campaignWith([number]);
    const calls = await settled(campaign, 1, (c) => c[0].transcript !== null);
    expect(callTo(calls, number)).toMatchObject({ status: 'failed', failure_reason: 'model sent nothing for 1 s' });
    expect(madeTo(number).frames.slice(-2)).toEqual([{ type: 'text', token: APOLOGY, last: true }, { type: 'end' }]);
  });

  it('refuses a callback with a bad signature (recording nothing), one for an unknown call, and an unsigned relay upgrade', async () => {
    const number = '+12015550851';
    scripts[number] = { answer: 'human', says: [] };
    const campaign = await campaignWith([number]);
    const [call] = await settled(campaign, 1);
    const status = `${t.url}/api/telephony/twilio/status`;
    const forged = await twilio.post(status, { CallSid: call.provider_call_id, CallStatus: 'busy' }, 'bm90IGEgc2lnbmF0dXJl');
    expect(forged).toEqual({ status: 401, text: '{"message":"Invalid signature."}' });
    expect(await twilio.post(status, { CallSid: 'CA99999999999999999999999999999999', CallStatus: 'completed' })).toEqual({
      status: 404,
      text: '{"message":"Call not found."}',
    });
    expect((await callsOf(campaign))[0].status).toBe(call.status);
    const relay = `${t.url.replace('http', 'ws')}/api/telephony/twilio/relay`;
    for (const signature of ['', 'bm90IGEgc2lnbmF0dXJl']) {
      const refused = await new Promise<number>((resolve, reject) => {
        const ws = signature ? twilio.connect(relay, signature) : new WebSocket(relay);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => reject(new Error('upgraded without a valid signature')));
        ws.on('error', () => undefined);
      });
      expect(refused).toBe(401);
    }
  });

  it('answers a Twilio number’s voice URL with the relay for its assistant, and rejects a number no assistant holds', async () => {
    const inbound = `${t.url}/api/telephony/twilio/inbound`;
    const answered = await twilio.post(inbound, { CallSid: 'CA0000000000000000000000000000abcd', From: '+12015550999', To: FROM, Direction: 'inbound' });
    expect(answered.status).toBe(200);
    expect(answered.text).toMatch(
      /^<Response><Connect><ConversationRelay url="ws:\/\/127\.0\.0\.1:\d+\/api\/telephony\/twilio\/relay" welcomeGreeting="Hello!" language="en-US" ttsProvider="ElevenLabs" voice="21m00Tcm4TlvDq8ikWAM"><Parameter name="call_id" value="\d+"\/><\/ConversationRelay><\/Connect><\/Response>$/,
    );
    const rejected = await twilio.post(inbound, { CallSid: 'CA0000000000000000000000000000abce', From: '+12015550999', To: '+12015550998' });
    expect(rejected).toEqual({ status: 200, text: '<Response><Reject/></Response>' });
    const calls = (await t.request('GET', '/api/user/calls?per_page=100', { token })).body.data;
    expect(calls.find((c: { provider_call_id: string }) => c.provider_call_id === 'CA0000000000000000000000000000abcd')).toMatchObject({
      type: 'inbound',
      provider: 'twilio',
    });
  });

  it("serves a greeting too long for Twilio's Twiml from the call's Url, greets with the lead's variables, and takes callbacks that come before the create's answer", async () => {
    const long = `Hello {{first_name}}! ${'This call may be recorded. '.repeat(160)}`;
    const greeter = await runtimeAssistant(t, token, '+12015550830', receiver.url, {
      initial_message: long,
      post_call_schema: [],
      post_call_evaluation: false,
    });
    const number = '+12015550831';
    scripts[number] = { answer: 'human', says: ['Hi'] };
    twilio.callbackFirst = true;
    try {
      const [call] = await settled(await campaignWith([number], greeter), 1, (c) => c[0].transcript !== null);
      const made = madeTo(number);
      expect(made.params.get('Twiml')).toBeNull();
      expect(made.params.get('Url')).toBe(`${t.url}/api/telephony/twilio/twiml?call_id=${call.id}`);
      expect(made.twiml).toContain(`welcomeGreeting="Hello Ann! This call may be recorded.`);
      // The `initiated` callback came before the create's answer: matched by the URL's call id, not refused as unknown.
      expect(made.callbacks[0]).toMatchObject({ params: { CallStatus: 'initiated' }, status: 200 });
      expect(call).toMatchObject({ provider_call_id: made.sid, status: 'ended_by_customer' });
    } finally {
      twilio.callbackFirst = false;
    }
  });

  it('talks to a reasoning model without the temperature it refuses', async () => {
    const reasoning = await runtimeAssistant(t, token, '+12015550840', receiver.url, {
      llm_model: 'o4-mini',
      post_call_schema: [],
      post_call_evaluation: false,
    });
    const number = '+12015550841';
    scripts[number] = { answer: 'human', says: ['Hi there'] };
    const [call] = await settled(await campaignWith([number], reasoning), 1, (c) => c[0].transcript !== null);
    expect(call).toMatchObject({ status: 'ended_by_customer', failure_reason: null });
    expect(call.transcript).toContain('AI: Sure, go on.');
    const turn = model.turns.find((b) => b.model === 'o4-mini');
    expect(turn).toBeDefined();
    expect(turn).not.toHaveProperty('temperature');
  });

  it('takes callbacks and the relay signed with a SharedKey (HMAC-SHA256, as its settings header names), and refuses another key', async () => {
    const number = '+12015550851';
    scripts[number] = { answer: 'human', says: ['Hi'] };
    twilio.sharedKey = { id: 'webhooks_sharedkey_1', secret: SHARED_KEY_SECRET, algorithm: 'HMAC_SHA256' };
    try {
      const [call] = await settled(await campaignWith([number]), 1, (c) => c[0].transcript !== null);
      expect(call).toMatchObject({ status: 'ended_by_customer', transcript: expect.stringContaining('User: Hi') });
      expect(madeTo(number).callbacks.every((c) => c.status === 200)).toBe(true);
      twilio.sharedKey = { id: 'webhooks_sharedkey_2', secret: 'another-secret', algorithm: 'HMAC_SHA256' };
      const status = `${t.url}/api/telephony/twilio/status?call_id=${call.id}`;
      expect(await twilio.post(status, { CallSid: call.provider_call_id, CallStatus: 'completed' })).toEqual({
        status: 401,
        text: '{"message":"Invalid signature."}',
      });
    } finally {
      twilio.sharedKey = null;
    }
  });

  it('binds a live call to one relay socket only, and never a call that ended (docs/real-calls.md)', async () => {
    const relay = `${t.url.replace('http', 'ws')}/api/telephony/twilio/relay`;
    /** Opens a relay socket and sends setup: `bound` when the service keeps it open, `closed` when it closes it. */
    const setUp = (callSid: string, callId: number) =>
      new Promise<{ outcome: 'bound' | 'closed'; ws: WebSocket }>((resolve, reject) => {
        const ws = twilio.connect(relay);
        ws.once('error', reject);
        ws.once('open', () => {
          ws.send(JSON.stringify({ type: 'setup', callSid, customParameters: { call_id: String(callId) } }));
          const timer = setTimeout(() => resolve({ outcome: 'bound', ws }), 1000);
          ws.once('close', () => {
            clearTimeout(timer);
            resolve({ outcome: 'closed', ws });
          });
        });
      });
    const sid = 'CA0000000000000000000000000000bind';
    const answered = await twilio.post(`${t.url}/api/telephony/twilio/inbound`, { CallSid: sid, From: '+12015550997', To: FROM, Direction: 'inbound' });
    const callId = Number(/<Parameter name="call_id" value="(\d+)"\/>/.exec(answered.text)![1]);
    const [first, second] = await Promise.all([setUp(sid, callId), setUp(sid, callId)]);
    expect([first.outcome, second.outcome].sort()).toEqual(['bound', 'closed']);
    expect((await setUp(sid, callId)).outcome).toBe('closed');
    [first, second].forEach(({ ws }) => ws.close());

    const number = '+12015550852';
    scripts[number] = { answer: 'human', says: [] };
    const [ended] = await settled(await campaignWith([number]), 1);
    expect((await setUp(ended.provider_call_id, ended.id)).outcome).toBe('closed');
  });
});
