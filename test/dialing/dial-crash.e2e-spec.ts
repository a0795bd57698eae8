import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { eventually, FakeProvider } from '../support/fake-provider';
import { cli, startService } from '../support/processes';

const SECRET = 'crash-secret';

/** docs/api.md: a service killed while its dial request is on the wire costs the lead nothing. */
describe('a SIGKILL in the middle of a dial', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-dial-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('sends the same call again after the restart, and the lead completes on its first attempt', async () => {
    // The provider never answers the first dial (the service is killed waiting); then it answers.
    const provider = new FakeProvider(SECRET, (_to, attempt) => (attempt === 1 ? 'hang' : 'human'));
    const env = {
      DATA_DIR: dataDir,
      DIALER: 'http',
      DIALER_URL: await provider.start(),
      TELEPHONY_SECRET: SECRET,
      DIAL_INTERVAL_MS: '50',
      DIAL_RESEND_AFTER_SECONDS: '11',
    };
    const { token } = (await cli(env, 'users:create', '--email', 'crash@example.com')).json;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
    let service = await startService(env);
    try {
      const call = (method: string, path: string, body?: object) =>
        fetch(`${service.url}${path}`, { method, headers, body: body && JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
      const assistant = (await call('POST', '/api/user/assistant', requiredAssistantSettings)).data.id;
      const campaign = (
        await call('POST', '/api/user/campaigns', {
          name: 'Crash',
          assistant_id: assistant,
          max_retries: 0,
          calling_hours: { start: '00:00', end: '24:00' },
          calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        })
      ).data.id;
      await call('POST', '/api/user/lead', { campaign_id: campaign, phone_number: '+12015550601' });
      await call('POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'start' });
      const first = await eventually(() => provider.dials[0], 10_000, 'the first dial');
      service.child.kill('SIGKILL');
      await new Promise((r) => service.child.once('exit', r));

      service = await startService(env);
      await eventually(async () => (await call('GET', `/api/user/campaigns/${campaign}`)).status === 'completed', 25_000, 'the campaign to complete');
      expect(provider.dials.map((d) => d.request.call_id)).toEqual([first.request.call_id, first.request.call_id]);
      const [lead] = await call('GET', `/api/user/leads?campaign_id=${campaign}`);
      expect(lead.status).toBe('completed');
      const calls = await call('GET', `/api/user/calls?campaign_id=${campaign}`);
      expect(calls.data.map((c: { id: number; status: string }) => [c.id, c.status])).toEqual([[first.request.call_id, 'completed']]);
    } finally {
      await service.stop();
      await provider.stop();
    }
  }, 60_000);
});
