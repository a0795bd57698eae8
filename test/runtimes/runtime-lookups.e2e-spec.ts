import { CommandBus } from '@nestjs/cqrs';
import { DialRequest } from '../../src/voice-runtimes/dialer.port';
import { RetellDialer } from '../../src/voice-runtimes/retell/retell-dialer';
import { VapiDialer } from '../../src/voice-runtimes/vapi/vapi-dialer';
import { loadConfig } from '../../src/infrastructure/config/app-config';
import { EnvReader } from '../../src/infrastructure/config/env-reader';
import { readRetellSettings } from '../../src/voice-runtimes/retell/retell-settings';
import { readVapiSettings } from '../../src/voice-runtimes/vapi/vapi-settings';
import { readTwilioSettings } from '../../src/voice-runtimes/twilio/twilio-settings';
import { FakeRetell } from '../support/fake-retell';
import { FakeVapi } from '../support/fake-vapi';
import { FakeTwilio } from '../support/fake-twilio';
import { TwilioDialer } from '../../src/voice-runtimes/twilio/twilio-dialer';
import { renderedAssistant } from '../../src/testing/assistant.fixture';

const request = (callId: number, to: string): DialRequest => ({
  call_id: callId,
  from: '+12015550700',
  to,
  assistant_id: 1,
  assistant: renderedAssistant(),
  campaign_id: 1,
  lead_id: 1,
  secondary_contact_id: null,
  variables: {},
  callback_url: '',
});

/** docs/real-calls.md: before a resend, each runtime is asked for the call it may have placed, matched on our call id. */
describe("looking up a dial's call at the runtime", () => {
  it('Retell: finds the call by metadata.call_id through every page of /v3/list-calls, a call still registered too; none; or unknown when unreachable', async () => {
    const retell = new FakeRetell('k', () => ({ silent: true }));
    const url = await retell.start();
    retell.listPage = 2;
    const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
    const post = (path: string, body: object) =>
      fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
    const { agent_id } = await post('/create-agent', { agent_name: 'a' });
    const since = new Date(Date.now() - 1000);
    const dial = (callId: number) =>
      post('/v2/create-phone-call', { from_number: '+12015550700', to_number: '+12015550701', override_agent_id: agent_id, metadata: { call_id: callId } });
    for (const other of [1, 2, 3, 4]) await dial(other);
    // Never started: `registered`, with no start_timestamp, and on the third page.
    const made = await dial(7);
    const env = { DIALER: 'retell', RETELL_API_KEY: 'k', RETELL_BASE_URL: url };
    const dialer = new RetellDialer(loadConfig(env), readRetellSettings(new EnvReader(env)), {} as CommandBus);
    expect(await dialer.lookup(request(7, '+12015550701'), since)).toEqual({ found: made.call_id });
    expect(await dialer.lookup(request(8, '+12015550701'), since)).toBe('none');
    await retell.stop();
    expect(await dialer.lookup(request(7, '+12015550701'), since)).toBe('unknown');
  });

  it("Vapi: finds the call by the transient assistant's metadata.call_id from the number since the first send; none; or unknown", async () => {
    const vapi = new FakeVapi('k', [{ id: 'pn', number: '+12015550700' }], () => ({ silent: true }));
    const url = await vapi.start();
    const env = { DIALER: 'vapi', VAPI_API_KEY: 'k', VAPI_WEBHOOK_SECRET: 's', VAPI_BASE_URL: url };
    const dialer = await VapiDialer.create(loadConfig(env), readVapiSettings(new EnvReader(env)));
    const since = new Date(Date.now() - 1000);
    const assistant = renderedAssistant({ initial_message: 'Hi', system_prompt: 'Be kind.', llm_temperature: 0.5, max_call_duration: 60 });
    const placed = await dialer.dial({ ...request(9, '+12015550702'), assistant });
    expect(await dialer.lookup(request(9, '+12015550702'), since)).toEqual({ found: placed.providerCallId });
    expect(await dialer.lookup(request(10, '+12015550702'), since)).toBe('none');
    await vapi.stop();
    expect(await dialer.lookup(request(9, '+12015550702'), since)).toBe('unknown');
  });

  it('Twilio: finds the call placed from the number to the contact since the first send; none; or unknown when unreachable', async () => {
    const sid = 'AC00000000000000000000000000000009';
    const twilio = new FakeTwilio(sid, 't', () => ({ silent: true }));
    const url = await twilio.start();
    const env = { DIALER: 'twilio', TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: 't', TWILIO_API_BASE_URL: url, LLM_API_KEY: 'sk' };
    const dialer = new TwilioDialer(loadConfig(env), readTwilioSettings(new EnvReader(env)));
    const since = new Date(Date.now() - 1000);
    const shape = renderedAssistant({ initial_message: 'Hi', max_call_duration: 60, record_call: false, end_call_on_voicemail: false });
    const placed = await dialer.dial({ ...request(11, '+12015550703'), assistant: shape });
    expect(placed.providerCallId).toMatch(/^CA[0-9a-f]{32}$/);
    // Still queued at Twilio (no StartTime yet), and found.
    expect(await dialer.lookup(request(11, '+12015550703'), since)).toEqual({ found: placed.providerCallId });
    // Every page is read (one call a page here) before a lookup answers none.
    twilio.pageSize = 1;
    for (const other of [13, 14, 15]) await dialer.dial({ ...request(other, '+12015550705'), assistant: shape });
    const listsBefore = twilio.lists.length;
    expect(await dialer.lookup(request(16, '+12015550705'), new Date(Date.now() + 60_000))).toBe('none');
    expect(twilio.lists.length - listsBefore).toBe(3);
    expect(twilio.lists.every((query) => !query.includes('StartTime'))).toBe(true);
    expect(await dialer.lookup(request(12, '+12015550704'), since)).toBe('none');
    expect(await dialer.lookup(request(11, '+12015550703'), new Date(Date.now() + 60_000))).toBe('none');
    await twilio.stop();
    expect(await dialer.lookup(request(11, '+12015550703'), since)).toBe('unknown');
  });
});
