import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { sign } from 'retell-sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import { ClaimAssistantPublish, RecordAssistantLlm } from '../../src/assistants/commands/runtime-publication';
import { ManualClock } from '../../src/shared/clock';
import { EVERY_DAY } from '../support/dialing-world';
import { eventually } from '../support/fake-provider';
import { FakeRetell, RetellScript } from '../support/fake-retell';
import { Receiver } from '../support/receiver';
import { freePort } from '../support/processes';
import { runtimeAssistant } from '../support/runtime-assistant';
import { startTestApp, TestApp } from '../support/test-app';

const WEBHOOK_KEY = 'key_retell_webhook_badge';
const KEY = 'retell-api-key';
const FROM = '+12015550800';

/** docs/real-calls.md: the assistant published to Retell as an LLM and an agent, the calls dialed with it, Retell's events moving them. */
describe('DIALER=retell', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-retell-'));
  let t: TestApp;
  let retell: FakeRetell;
  let receiver: Receiver;
  let env: Record<string, string>;
  let token: string;
  let assistantId: number;
  const scripts: Record<string, RetellScript[]> = {};

  beforeAll(async () => {
    receiver = await new Receiver(() => ({ status: 200, body: { booked: true } })).start();
    // Retell signs its events with the key that has its webhook badge: here another than the API key.
    retell = new FakeRetell(KEY, (to, nth) => scripts[to]?.[nth - 1] ?? { reason: 'user_hangup' }, WEBHOOK_KEY);
    env = {
      DIALER: 'retell',
      RETELL_API_KEY: KEY,
      RETELL_WEBHOOK_API_KEY: WEBHOOK_KEY,
      RETELL_BASE_URL: await retell.start(),
      DIAL_INTERVAL_MS: '30',
      DEFAULT_QUIET_HOURS: 'none',
      ALLOW_PRIVATE_TARGETS: 'true',
    };
    t = await startTestApp(env, { dataDir, port: await freePort() });
    ({ token } = await t.createUser());
    assistantId = await runtimeAssistant(t, token, FROM, receiver.url, { llm_model: 'gpt-4.1' });
  });
  afterAll(async () => {
    await t.close();
    await retell.stop();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const campaignWith = async (numbers: string[]) => {
    const body = {
      name: 'Retell',
      assistant_id: assistantId,
      calling_hours: { start: '00:00', end: '24:00' },
      calling_days: EVERY_DAY,
      max_concurrent_calls: 10,
    };
    const id = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id as number;
    for (const phone_number of numbers) await t.request('POST', '/api/user/lead', { token, body: { campaign_id: id, phone_number, variables: { visits: 3 } } });
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: id, action: 'start' } });
    return id;
  };
  const ended = (campaignId: number, count: number) =>
    eventually(
      async () => {
        const calls = (await t.request('GET', `/api/user/calls?campaign_id=${campaignId}&per_page=100`, { token })).body.data;
        return (
          calls.length >= count && calls.every((c: { status: string }) => !['initiated', 'ringing', 'in-progress'].includes(c.status)) && retell.idle && calls
        );
      },
      15_000,
      'the Retell calls to end',
    );
  const byNumber = (calls: Array<{ client_phone_number: string }>, n: string) => calls.find((c) => c.client_phone_number === n) as any;

  it('publishes the assistant once while five calls race to need it, then dials each with its agent', async () => {
    const numbers = ['+12015550801', '+12015550802', '+12015550803', '+12015550804', '+12015550805'];
    const calls = await ended(await campaignWith(numbers), numbers.length);
    expect(retell.changes).toEqual(['create-retell-llm', 'create-agent']);
    const [[llmId, llm]] = [...retell.llms];
    const [[agentId, agent]] = [...retell.agents];
    expect(llm).toEqual({
      general_prompt: 'You are helpful.',
      begin_message: 'Hello!',
      start_speaker: 'agent',
      model: 'gpt-4.1',
      model_temperature: expect.any(Number),
      general_tools: [
        {
          type: 'custom',
          name: 'book_slot',
          description: 'Books a slot',
          url: `${t.url}/api/telephony/retell/tools/book_slot`,
          method: 'POST',
          parameters: { type: 'object', properties: { day: { type: 'string', description: 'The day' } } },
          speak_after_execution: true,
          timeout_ms: 15_000,
        },
      ],
    });
    expect(retell.refused).toEqual([]);
    expect(agent).toEqual({
      response_engine: { type: 'retell-llm', llm_id: llmId },
      agent_name: `Ada (assistant ${assistantId})`,
      voice_id: '11labs-Myra',
      language: 'en-US',
      webhook_url: `${t.url}/api/telephony/retell/events`,
      max_call_duration_ms: 300_000,
      voicemail_option: { action: { type: 'hangup' } },
      post_call_analysis_data: [{ type: 'string', name: 'slot', description: 'The slot booked' }],
    });
    const first = retell.calls.find((c) => c.body.to_number === numbers[0])!;
    expect(first.body).toEqual({
      from_number: FROM,
      to_number: numbers[0],
      override_agent_id: agentId,
      retell_llm_dynamic_variables: { visits: '3' },
      metadata: { call_id: byNumber(calls, numbers[0]).id },
    });
    expect(byNumber(calls, numbers[0])).toMatchObject({
      provider: 'retell',
      provider_call_id: first.call_id,
      status: 'ended_by_customer',
      duration: 30,
      answered_by: 'human',
      total_cost: 0.17,
      transcript: 'Agent: Hello!\nUser: Hi.',
    });
  });

  it('takes each terminal status from call_ended, and the analysis from call_analyzed', async () => {
    scripts['+12015550811'] = [{ reason: 'dial_busy', neverStarted: true }];
    scripts['+12015550812'] = [{ reason: 'dial_no_answer', neverStarted: true }];
    scripts['+12015550813'] = [{ reason: 'voicemail_reached' }];
    scripts['+12015550814'] = [{ reason: 'dial_failed', neverStarted: true }];
    scripts['+12015550815'] = [
      { reason: 'agent_hangup', analysis: { custom_analysis_data: { slot: 'Tue', x: 1 }, call_successful: true, call_summary: 'Booked.' } },
    ];
    const numbers = Object.keys(scripts).filter((n) => n.startsWith('+1201555081'));
    const calls = await ended(await campaignWith(numbers), numbers.length);
    expect(byNumber(calls, '+12015550811')).toMatchObject({ status: 'busy', failure_reason: null });
    expect(byNumber(calls, '+12015550812')).toMatchObject({ status: 'no-answer' });
    expect(byNumber(calls, '+12015550813')).toMatchObject({ status: 'ended', answered_by: 'machine' });
    expect(byNumber(calls, '+12015550814')).toMatchObject({ status: 'failed', failure_reason: 'retell: dial_failed' });
    await eventually(
      async () => (await t.request('GET', `/api/user/calls/${byNumber(calls, '+12015550815').id}`, { token })).body.evaluation,
      5_000,
      'the analysis',
    );
    expect((await t.request('GET', `/api/user/calls/${byNumber(calls, '+12015550815').id}`, { token })).body).toMatchObject({
      status: 'ended_by_assistant',
      variables: { visits: 3, slot: 'Tue' },
      evaluation: { success: true, summary: 'Booked.' },
    });
  });

  it('runs a custom tool for a signed request, and refuses a bad signature or an unknown call', async () => {
    scripts['+12015550821'] = [{ silent: true }];
    await campaignWith(['+12015550821']);
    await eventually(() => retell.calls.some((c) => c.body.to_number === '+12015550821'), 10_000, 'the call');
    const made = retell.calls.find((c) => c.body.to_number === '+12015550821')!;
    const call = { call_id: made.call_id, metadata: made.body.metadata };
    const toolUrl = `${t.url}/api/telephony/retell/tools/book_slot`;
    expect(await retell.post(toolUrl, { name: 'book_slot', call, args: { day: 'Tuesday' } })).toEqual({ status: 200, body: { booked: true } });
    expect(receiver.received.at(-1)!.body).toEqual({ day: 'Tuesday' });
    // Arguments its schema refuses, or a tool it lacks: the model hears why, in a 200 (a refusal status reaches no one).
    expect(await retell.post(toolUrl, { name: 'book_slot', call, args: { day: 3 } })).toEqual({
      status: 200,
      body: { error: 'Invalid arguments: arguments.day: The arguments.day field must be a string.' },
    });
    expect(await retell.post(`${t.url}/api/telephony/retell/tools/nothing`, { name: 'nothing', call, args: {} })).toEqual({
      status: 200,
      body: { error: 'Unknown tool nothing.' },
    });
    // Signed with the API key, not the webhook key: refused.
    const byApiKey = await sign(JSON.stringify({ event: 'call_started', call }), KEY);
    expect(await retell.post(`${t.url}/api/telephony/retell/events`, { event: 'call_started', call }, byApiKey)).toEqual({
      status: 401,
      body: { message: 'Invalid signature.' },
    });
    const eventsUrl = `${t.url}/api/telephony/retell/events`;
    for (const signature of [null, 'v=1,d=00', `v=${Date.now()},d=${'0'.repeat(64)}`]) {
      expect(await retell.post(eventsUrl, { event: 'call_started', call }, signature)).toEqual({ status: 401, body: { message: 'Invalid signature.' } });
    }
    expect(await retell.post(eventsUrl, { event: 'call_started', call: { call_id: 'call_other', metadata: { call_id: made.body.metadata.call_id } } })).toEqual(
      {
        status: 404,
        body: { message: 'Call not found.' },
      },
    );
    expect((await t.request('GET', `/api/user/calls/${made.body.metadata.call_id}`, { token })).body.status).toBe('initiated');
    await retell.post(eventsUrl, { event: 'call_ended', call: { ...call, disconnection_reason: 'user_hangup', duration_ms: 1000 } });
    expect((await retell.post(eventsUrl, { event: 'call_ended', call: { ...call, disconnection_reason: 'dial_busy' } })).status).toBe(200);
    // The other events retell-sdk documents are answered and change nothing.
    for (const event of ['transcript_updated', 'transfer_started', 'transfer_bridged', 'transfer_cancelled', 'transfer_ended']) {
      expect(await retell.post(eventsUrl, { event, call })).toEqual({ status: 200, body: {} });
    }
    expect((await t.request('GET', `/api/user/calls/${made.body.metadata.call_id}`, { token })).body.status).toBe('ended_by_customer');
  });

  it('updates the same LLM and agent after the assistant changes, and publishes nothing again after a restart', async () => {
    await t.request('PUT', `/api/user/assistant/${assistantId}`, { token, body: { system_prompt: 'You book slots.' } });
    await ended(await campaignWith(['+12015550831']), 1);
    expect(retell.changes).toEqual(['create-retell-llm', 'create-agent', 'update-retell-llm', 'update-agent']);
    expect([...retell.llms.values()][0].general_prompt).toBe('You book slots.');
    const port = Number(new URL(t.url).port);
    await t.close();
    t = await startTestApp(env, { dataDir, port });
    await ended(await campaignWith(['+12015550832']), 1);
    expect(retell.changes).toHaveLength(4);
    expect(retell.agents.size).toBe(1);
    // Reached at another address, the callbacks are published again, to the same agent.
    await t.close();
    t = await startTestApp(env, { dataDir });
    await ended(await campaignWith(['+12015550833']), 1);
    expect(retell.changes.slice(4)).toEqual(['update-retell-llm', 'update-agent']);
    expect([...retell.agents.values()][0].webhook_url).toBe(`${t.url}/api/telephony/retell/events`);
  });
});

/** A service dialing through a fake Retell on a manual clock, and a receiver for its tools and webhooks. */
async function clockedRetell(scriptOf: (to: string) => RetellScript) {
  const clock = new ManualClock(new Date('2026-06-01T15:00:00Z'));
  const receiver = await new Receiver(() => ({ status: 200, body: {} })).start();
  const retell = new FakeRetell(KEY, scriptOf);
  const env = { DIALER: 'retell', RETELL_API_KEY: KEY, RETELL_BASE_URL: await retell.start(), DIAL_INTERVAL_MS: '30', DEFAULT_QUIET_HOURS: 'none' };
  const t = await startTestApp(env, { clock });
  const close = async () => {
    await t.close();
    await retell.stop();
    await receiver.stop();
  };
  return { t, retell, receiver, clock, close };
}

/** docs/real-calls.md: a publication whose process died after Retell made its agent, before the id was recorded. */
describe('DIALER=retell after a publication cut short', () => {
  let w: Awaited<ReturnType<typeof clockedRetell>>;
  beforeAll(async () => (w = await clockedRetell(() => ({ reason: 'user_hangup' }))));
  afterAll(() => w.close());

  it('finds the agent it made by name and takes it over, never making a second one', async () => {
    const { t, retell, receiver, clock } = w;
    const { token } = await t.createUser();
    const assistantId = await runtimeAssistant(t, token, FROM, receiver.url, { llm_model: 'gpt-4.1' });
    const bus = t.app.get(CommandBus);
    const retellApi = (path: string, body: object) =>
      fetch(`${retell.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>);
    // The process that claimed the publication made the LLM (recorded) and the agent (not recorded), then died.
    expect((await bus.execute(new ClaimAssistantPublish(assistantId, t.url))).claimed).toBe(true);
    const { llm_id } = await retellApi('/create-retell-llm', { general_prompt: 'old' });
    await bus.execute(new RecordAssistantLlm(assistantId, llm_id));
    const { agent_id } = await retellApi('/create-agent', { agent_name: `Ada (assistant ${assistantId})`, response_engine: { type: 'retell-llm', llm_id } });
    clock.advance(31_000);

    const body = { name: 'Taken over', assistant_id: assistantId, calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY };
    const campaign = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id;
    await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: '+12015550861' } });
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    await eventually(() => retell.calls.length === 1, 10_000, 'the call');
    expect(retell.changes).toEqual(['create-retell-llm', 'create-agent', 'update-retell-llm', 'update-agent']);
    expect(retell.calls[0].body.override_agent_id).toBe(agent_id);
    expect(retell.agents.get(agent_id).general_prompt).toBeUndefined();
    expect(retell.llms.get(llm_id).general_prompt).toBe('You are helpful.');
  });
});

/** docs/api.md, docs/real-calls.md: with Retell, the post-call webhook waits for call_analyzed, or gives up on it after ANALYSIS_WAIT_SECONDS. */
describe('DIALER=retell post-call webhooks', () => {
  const analysis = { custom_analysis_data: { slot: 'Wed' }, call_successful: true, call_summary: 'Booked.' };
  let w: Awaited<ReturnType<typeof clockedRetell>>;
  beforeAll(async () => (w = await clockedRetell((to) => (to === '+12015550871' ? { reason: 'user_hangup', analysis } : { reason: 'user_hangup' }))));
  afterAll(() => w.close());

  it('sends call.ended with the analysis once it comes, and without it once it is given up on', async () => {
    const { t, retell, receiver, clock } = w;
    const { token } = await t.createUser();
    const assistantId = await runtimeAssistant(t, token, FROM, receiver.url, {
      llm_model: 'gpt-4.1',
      is_webhook_active: true,
      webhook_url: `${receiver.url}/hook`,
    });
    const body = { name: 'Hooks', assistant_id: assistantId, calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY };
    const campaign = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id;
    for (const phone_number of ['+12015550871', '+12015550872'])
      await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number } });
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    const ended = (number: string) =>
      receiver.to('/hook').find((r) => {
        const sent = r.body as { event: string; call?: { client_phone_number: string } };
        return sent.event === 'call.ended' && sent.call?.client_phone_number === number;
      });
    const analysed = await eventually(() => ended('+12015550871'), 10_000, 'the webhook of the analysed call');
    expect((analysed.body as { call: object }).call).toMatchObject({
      status: 'ended_by_customer',
      variables: { slot: 'Wed' },
      evaluation: { success: true, summary: 'Booked.' },
    });
    // The other call ended as long ago, its analysis never came: no webhook until the wait is given up on.
    await eventually(async () => retell.idle, 10_000, 'both calls to end');
    await new Promise((r) => setTimeout(r, 300));
    expect(ended('+12015550872')).toBeUndefined();
    clock.advance(301_000);
    const late = await eventually(() => ended('+12015550872'), 10_000, 'the webhook given up waiting');
    expect((late.body as { call: { evaluation: unknown } }).call.evaluation).toBeNull();
    expect(receiver.to('/hook').filter((r) => (r.body as { event: string }).event === 'call.ended')).toHaveLength(2);
  });
});

/** docs/real-calls.md: what Retell cannot place is refused when saved, never at the dial. */
describe('DIALER=retell, what Retell cannot place', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ DIALER: 'retell', RETELL_API_KEY: KEY, RETELL_BASE_URL: 'http://127.0.0.1:9' });
    ({ token } = await t.createUser());
  });
  afterAll(() => t.close());

  it("refuses a model Retell does not offer and a call shorter than Retell's minute, naming Retell's rule; takes them in its terms", async () => {
    const refused = await t.request('POST', '/api/user/assistant', {
      token,
      body: { ...requiredAssistantSettings, llm_model: 'gpt-4o', max_call_duration: 30 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.llm_model[0]).toMatch(/^The llm model field must be one of Retell's models: gpt-4.1, .* \(DIALER=retell\)\.$/);
    expect(refused.body.errors.max_call_duration).toEqual(['The max call duration field must be at least 60 with Retell (DIALER=retell).']);
    const taken = await t.request('POST', '/api/user/assistant', {
      token,
      body: { ...requiredAssistantSettings, llm_model: 'claude-4.5-sonnet', max_call_duration: 60 },
    });
    expect(taken.status).toBe(201);
    const changed = await t.request('PUT', `/api/user/assistant/${taken.body.data.id}`, { token, body: { llm_model: 'gpt-4o-mini' } });
    expect(changed.status).toBe(422);
    expect((await t.request('GET', `/api/user/assistants/${taken.body.data.id}`, { token })).body.llm_model).toBe('claude-4.5-sonnet');
  });
});
