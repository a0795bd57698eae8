import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/shared/clock';
import { EVERY_DAY } from '../support/dialing-world';
import { eventually } from '../support/fake-provider';
import { FakeModel } from '../support/fake-model';
import { FakeTwilio } from '../support/fake-twilio';
import { freePort } from '../support/processes';
import { Receiver } from '../support/receiver';
import { runtimeAssistant } from '../support/runtime-assistant';
import { startTestApp, TestApp } from '../support/test-app';

const SID = 'AC00000000000000000000000000000002';
const TOKEN = 'twilio-auth-token';
const NUMBER = '+12015550861';

/**
 * docs/real-calls.md, issue: conversations are state of one process. A restart mid-call closes the
 * relay's socket (Twilio then ends the call); the conversation so far is recorded at the stop, and
 * Twilio's callback, taken once the service is back, records the end: one attempt, not lost, not doubled.
 */
describe('DIALER=twilio: a restart mid-call', () => {
  it('records the transcript so far at the stop and the end from the callback after it, the lead’s attempt counted once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'twilio-restart-'));
    const receiver = await new Receiver(() => ({ status: 200, body: {} })).start();
    const twilio = new FakeTwilio(SID, TOKEN, () => ({ answer: 'human', says: ['Hello?', 'Still there?'] }));
    // The answer streams slowly: the service stops in the middle of it.
    const model = new FakeModel(() => ({ text: ['Hi,', ' this', ' is', ' Ada', ' calling', ' about', ' your', ' plan.'], everyMs: 150 }));
    const port = await freePort();
    const clock = new ManualClock(new Date('2026-06-01T15:00:00Z'));
    const env = {
      DIALER: 'twilio',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_API_BASE_URL: await twilio.start(),
      LLM_API_KEY: 'sk',
      LLM_BASE_URL: `${await model.start()}/v1`,
      DIAL_INTERVAL_MS: '30',
    };
    let t: TestApp = await startTestApp(env, { dataDir, port, clock });
    try {
      const { token } = await t.createUser();
      const assistant = await runtimeAssistant(t, token, '+12015550860', receiver.url, { post_call_schema: [], post_call_evaluation: false });
      const body = {
        name: 'Restart',
        assistant_id: assistant,
        calling_hours: { start: '00:00', end: '24:00' },
        calling_days: EVERY_DAY,
        max_retries: 2,
        retry_interval: 60,
      };
      const campaign = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id;
      await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: NUMBER } });
      await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
      await eventually(async () => twilio.calls[0]?.frames.length >= 2, 10_000, 'the answer to start streaming');
      await t.stop();
      t = await startTestApp(env, { dataDir, port, clock });
      const calls = await eventually(
        async () => {
          const listed = (await t.request('GET', `/api/user/calls?campaign_id=${campaign}`, { token })).body.data;
          return listed.length === 1 && listed[0].status === 'ended_by_customer' && twilio.idle && listed;
        },
        15_000,
        'the end to be recorded after the restart',
      );
      expect(calls[0]).toMatchObject({ provider_call_id: twilio.calls[0].sid, answered_by: 'human', duration: expect.any(Number) });
      expect(calls[0].transcript).toMatch(/^AI: Hello!\nUser: Hello\?\nAI: Hi, this/);
      // The stop cut the answer: nothing after it was said, and no second prompt was asked.
      expect(calls[0].transcript).not.toContain('Still there?');
      const [lead] = (await t.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body;
      expect(lead).toMatchObject({ attempts: 1 });
      expect(twilio.calls).toHaveLength(1);
    } finally {
      await t.close();
      await twilio.stop();
      await model.stop();
      await receiver.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
