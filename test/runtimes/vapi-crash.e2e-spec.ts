import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { EVERY_DAY } from '../support/dialing-world';
import { eventually } from '../support/fake-provider';
import { FakeVapi, VapiScript } from '../support/fake-vapi';
import { cli, startService } from '../support/processes';
import { startTestApp } from '../support/test-app';

const KEY = 'vapi-crash-key';
const SECRET = 'vapi-crash-secret';
const FROM = '+12015550980';
const MADE = '+12015550981';
const NOT_MADE = '+12015550982';

/** The campaign both suites dial: the assistant on FROM, no retry, open all day; its two leads; started. */
async function startedCampaign(call: (method: string, path: string, body?: object) => Promise<any>): Promise<number> {
  const number = (await call('POST', '/api/user/phone-numbers', { phone_number: FROM })).data.id;
  const assistant = (await call('POST', '/api/user/assistant', { ...requiredAssistantSettings, phone_number_id: number })).data.id;
  const body = { name: 'Vapi', assistant_id: assistant, max_retries: 0, calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY };
  const campaign = (await call('POST', '/api/user/campaigns', body)).data.id;
  for (const phone_number of [MADE, NOT_MADE]) await call('POST', '/api/user/lead', { campaign_id: campaign, phone_number });
  await call('POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'start' });
  return campaign;
}

/** docs/real-calls.md: Vapi does not deduplicate on our call id, so a dial left unconfirmed by a crash is looked up before any resend. */
describe('a SIGKILL between Vapi taking a dial and its confirmation', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-vapi-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('adopts the call Vapi made, dials again only the one Vapi shows none of, and each lead completes on one attempt', async () => {
    // First dials: to MADE, Vapi makes the call and never answers; to NOT_MADE, it neither makes nor answers.
    const first: Record<string, VapiScript> = { [MADE]: { hold: true }, [NOT_MADE]: { hang: true } };
    const vapi = new FakeVapi(KEY, [{ id: 'pn-crash', number: FROM }], (to, nth) => (nth === 1 && first[to]) || { silent: true });
    const env = {
      DATA_DIR: dataDir,
      DIALER: 'vapi',
      VAPI_API_KEY: KEY,
      VAPI_WEBHOOK_SECRET: SECRET,
      VAPI_BASE_URL: await vapi.start(),
      DIAL_INTERVAL_MS: '50',
      DIAL_RESEND_AFTER_SECONDS: '11',
      // The test polls the calls every 20 ms while the resend sweep waits its 11 s.
      RATE_LIMIT_PER_MINUTE: '100000',
    };
    const { token } = (await cli(env, 'users:create', '--email', 'vapi-crash@example.com')).json;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
    let service = await startService(env);
    try {
      const call = (method: string, path: string, body?: object) =>
        fetch(`${service.url}${path}`, { method, headers, body: body && JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
      const campaign = await startedCampaign(call);
      await eventually(() => vapi.dialsReceived.length === 2, 10_000, 'both first dials at Vapi');
      service.child.kill('SIGKILL');
      await new Promise((r) => service.child.once('exit', r));

      service = await startService(env);
      // Both calls are Vapi's once the resend sweep has looked: the one it made adopted, the other dialed again.
      const calls = await eventually(
        async () => {
          const listed = (await call('GET', `/api/user/calls?campaign_id=${campaign}`)).data;
          return listed?.length === 2 && listed.every((c: { provider_call_id: string | null }) => c.provider_call_id) && listed;
        },
        30_000,
        'both calls to have their Vapi ids',
      );
      expect(vapi.dialsReceived.sort()).toEqual([MADE, NOT_MADE, NOT_MADE]);
      expect(vapi.calls.map((c) => c.body.customer.number).sort()).toEqual([MADE, NOT_MADE]);
      for (const made of vapi.calls) {
        const ours = calls.find((c: { provider_call_id: string }) => c.provider_call_id === made.id);
        expect(ours).toMatchObject({ client_phone_number: made.body.customer.number, id: made.body.assistant.metadata.call_id });
        const sent = await vapi.send(`${service.url}/api/telephony/vapi/events`, SECRET, {
          type: 'end-of-call-report',
          endedReason: 'customer-ended-call',
          call: { id: made.id },
          startedAt: new Date(Date.now() - 5000).toISOString(),
          endedAt: new Date().toISOString(),
        });
        expect(sent.status).toBe(200);
      }
      await eventually(async () => (await call('GET', `/api/user/campaigns/${campaign}`)).status === 'completed', 15_000, 'the campaign to complete');
      const leads = await call('GET', `/api/user/leads?campaign_id=${campaign}`);
      expect(leads.map((l: { attempts: number; status: string }) => [l.status, l.attempts])).toEqual([
        ['completed', 1],
        ['completed', 1],
      ]);
    } finally {
      await service.stop();
      await vapi.stop();
    }
  }, 90_000);
});

/** docs/real-calls.md: a dial Vapi does not answer within the dial timeout is looked up, not judged refused. */
describe('a dial Vapi leaves unanswered', () => {
  it('is not failed: the call Vapi made is adopted, the one it did not make is dialed again, once', async () => {
    const first: Record<string, VapiScript> = { [MADE]: { hold: true }, [NOT_MADE]: { hang: true } };
    const vapi = new FakeVapi(KEY, [{ id: 'pn-timeout', number: FROM }], (to, nth) => (nth === 1 && first[to]) || { silent: true });
    const env = {
      DIALER: 'vapi',
      VAPI_API_KEY: KEY,
      VAPI_WEBHOOK_SECRET: SECRET,
      VAPI_BASE_URL: await vapi.start(),
      DIAL_INTERVAL_MS: '50',
      DIAL_RESEND_AFTER_SECONDS: '11',
    };
    const t = await startTestApp(env);
    try {
      const { token } = await t.createUser();
      const as = (method: string, path: string, body?: object) => t.request(method, path, { token, body });
      const campaign = await startedCampaign(async (method, path, body) => (await as(method, path, body)).body);
      const calls = await eventually(
        async () => {
          const listed = (await as('GET', `/api/user/calls?campaign_id=${campaign}`)).body.data;
          return listed?.length === 2 && listed.every((c: { provider_call_id: string | null }) => c.provider_call_id) && listed;
        },
        40_000,
        'both calls to have their Vapi ids',
      );
      expect(calls.map((c: { status: string }) => c.status)).not.toContain('failed');
      expect(vapi.dialsReceived.sort()).toEqual([MADE, NOT_MADE, NOT_MADE]);
      expect(vapi.calls.map((c) => c.body.customer.number).sort()).toEqual([MADE, NOT_MADE]);
    } finally {
      await t.close();
      await vapi.stop();
    }
  }, 60_000);
});
