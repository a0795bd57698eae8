import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite-event-store';
import { requiredAssistantSettings } from '../src/testing/assistant.fixture';
import { eventually, FakeProvider, Script } from './support/fake-provider';
import { cli, startService } from './support/processes';

const SECRET = 'two-process-secret';
const LEADS = 40;

describe('two service processes on one data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-two-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('dial every lead to its end without ever dialing one twice at once', async () => {
    // Primaries answer no-answer on their first round and a human on the second; every fifth is busy throughout.
    const provider = new FakeProvider(
      SECRET,
      (to, attempt): Script => (to.endsWith('5') || to.endsWith('0') ? 'busy' : attempt === 1 ? 'no-answer' : 'human'),
      2,
    );
    const env = { DATA_DIR: dataDir, DIALER: 'http', DIALER_URL: await provider.start(), TELEPHONY_SECRET: SECRET, DIAL_INTERVAL_MS: '20' };
    const { token } = (await cli(env, 'users:create', '--email', 'two@example.com')).json;
    const [a, b] = await Promise.all([startService(env), startService(env)]);
    try {
      const call = (service: { url: string }, method: string, path: string, body?: object) =>
        fetch(`${service.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: body && JSON.stringify(body),
        }).then((r) => r.json() as Promise<any>);
      const assistant = (await call(a, 'POST', '/api/user/assistant', requiredAssistantSettings)).data.id;
      const campaign = (
        await call(a, 'POST', '/api/user/campaigns', {
          name: 'Shared',
          assistant_id: assistant,
          max_retries: 2,
          retry_delay_seconds: 0,
          max_concurrent_calls: 8,
          calling_hours: { start: '00:00', end: '24:00' },
          calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        })
      ).data.id;
      for (let i = 0; i < LEADS; i++) {
        await call(i % 2 ? a : b, 'POST', '/api/user/lead', {
          campaign_id: campaign,
          phone_number: `+1201555${String(1000 + i)}`,
          secondary_contacts: [{ phone_number: `+1201556${String(1000 + i)}` }],
        });
      }
      expect((await call(b, 'POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'start' })).data.status).toBe('in-progress');
      const done = await eventually(
        async () => {
          const c = await call(a, 'GET', `/api/user/campaigns/${campaign}`);
          return c.status === 'completed' && c;
        },
        25_000,
        'the campaign to complete',
      );
      expect(done.stats.leads.created).toBe(0);
      expect(done.stats.leads.completed + done.stats.leads['reached-max-retries']).toBe(LEADS);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await provider.stop();
    }
    expect(provider.overlaps).toEqual([]);
    const callIds = provider.dials.map((d) => d.request.call_id);
    expect(new Set(callIds).size).toBe(callIds.length);
    // Each instance keeps to max_concurrent_calls on what it has seen projected; two instances
    // deciding in the same instant can together exceed it by at most one instance's share.
    expect(provider.maxOpen.get(1)).toBeLessThanOrEqual(2 * 8);

    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    try {
      const events = await store.readAll(0, 1_000_000);
      const claims = events.filter((e) => e.type === 'LeadCallStarted');
      expect(claims.map((e) => e.data.call_id).sort()).toEqual([...callIds].sort());
      const perLead = new Map<string, string[]>();
      for (const e of events.filter((e) => e.type === 'LeadCallStarted' || e.type === 'LeadCallFinished'))
        perLead.set(e.stream, [...(perLead.get(e.stream) ?? []), e.type]);
      expect(perLead.size).toBe(LEADS);
      for (const types of perLead.values()) types.forEach((type, i) => expect(type).toBe(i % 2 ? 'LeadCallFinished' : 'LeadCallStarted'));
    } finally {
      await store.close();
    }
  }, 60_000);
});
