import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite-event-store';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { eventually, FakeProvider, Script } from '../support/fake-provider';
import { cli, startService } from '../support/processes';
import { Receiver } from '../support/receiver';
import { RoundRobinProxy } from '../support/round-robin-proxy';

const SECRET = 'three-process-secret';
const LEADS = 40;
const CAP = 3;
const RATE_LIMIT = 300;

/**
 * docs/configuration.md, docs/dialing.md: three service processes on one data directory behind one proxy, as
 * `docker compose up --scale service=3` runs them: each piece of background work runs in one
 * of them at a time, so no lead is dialed twice at once, the campaign's cap holds across them,
 * each call's webhook goes out once, the rate limit counts a token's requests to all of them,
 * and the CLI works meanwhile.
 */
describe('three service processes on one data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-three-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('share the work: no lead dialed twice at once, the cap held, each webhook sent once, the rate limit summed, the CLI working', async () => {
    // Primaries answer no-answer on their first round and a human on the second; every fifth is busy throughout.
    const provider = new FakeProvider(
      SECRET,
      (to, attempt): Script => (to.endsWith('5') || to.endsWith('0') ? 'busy' : attempt === 1 ? 'no-answer' : 'human'),
      15,
    );
    const hooks = await new Receiver(() => ({ status: 200 })).start();
    const proxy = await new RoundRobinProxy().start();
    const env = {
      DATA_DIR: dataDir,
      DIALER: 'http',
      DIALER_URL: await provider.start(),
      TELEPHONY_SECRET: SECRET,
      DIAL_INTERVAL_MS: '20',
      // Outcomes come back through the proxy: whichever instance placed a call, any may record its end.
      PUBLIC_URL: proxy.url,
      ALLOW_PRIVATE_TARGETS: 'true',
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      WORK_LEASE_TTL_MS: '2000',
    };
    const { token } = (await cli(env, 'users:create', '--email', 'three@example.com')).json;
    const services = await Promise.all([startService(env), startService(env), startService(env)]);
    proxy.backends = services.map((s) => s.url);
    const call = (method: string, path: string, body?: object, bearer = token) =>
      fetch(`${proxy.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json' },
        body: body && JSON.stringify(body),
      });
    const ended = () =>
      hooks
        .to('/ended')
        .filter((r) => r.body.event === 'call.ended')
        .map((r) => r.body.call.id as number);
    const json = async (method: string, path: string, body?: object) => (await call(method, path, body)).json() as Promise<any>;
    try {
      const assistant = (
        await json('POST', '/api/user/assistant', { ...requiredAssistantSettings, is_webhook_active: true, webhook_url: `${hooks.url}/ended` })
      ).data.id;
      const campaign = (
        await json('POST', '/api/user/campaigns', {
          name: 'Shared',
          assistant_id: assistant,
          max_retries: 2,
          retry_delay_seconds: 0,
          max_concurrent_calls: CAP,
          calling_hours: { start: '00:00', end: '24:00' },
          calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        })
      ).data.id;
      for (let i = 0; i < LEADS; i++) {
        await json('POST', '/api/user/lead', {
          campaign_id: campaign,
          phone_number: `+1201555${String(1000 + i)}`,
          secondary_contacts: [{ phone_number: `+1201556${String(1000 + i)}` }],
        });
      }
      expect((await json('POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'start' })).data.status).toBe('in-progress');

      // The CLI while the three run: a new user, whose token every instance takes at once.
      const created = await cli(env, 'users:create', '--email', 'meanwhile@example.com');
      expect(created.code).toBe(0);
      for (let i = 0; i < 3; i++) expect((await call('GET', '/api/user/me', undefined, created.json.token)).status).toBe(200);

      // docs/teams.md: a key revoked and a member removed through one instance are refused by every other at the next request.
      const at = (i: number, method: string, path: string, bearer: string, body?: object) =>
        fetch(`${services[i].url}${path}`, {
          method,
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json' },
          body: body && JSON.stringify(body),
        });
      const key = ((await (await at(0, 'POST', '/api/user/api-keys', token, { name: 'shared', scopes: ['read'] })).json()) as any).data;
      const mate = ((await (await at(1, 'POST', '/api/user/members', token, { email: 'mate@example.com', role: 'viewer' })).json()) as any).data;
      for (let i = 0; i < 3; i++) {
        expect((await at(i, 'GET', '/api/user/me', key.token)).status).toBe(200);
        expect((await at(i, 'GET', '/api/user/me', mate.token)).status).toBe(200);
      }
      expect((await at(2, 'DELETE', `/api/user/api-keys/${key.id}`, token)).status).toBe(200);
      expect((await at(2, 'DELETE', `/api/user/members/${mate.id}`, token)).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        expect((await at(i, 'GET', '/api/user/me', key.token)).status).toBe(401);
        expect((await at(i, 'GET', '/api/user/me', mate.token)).status).toBe(401);
      }

      const done = await eventually(
        async () => {
          const c = await json('GET', `/api/user/campaigns/${campaign}`);
          return c.status === 'completed' && c;
        },
        40_000,
        'the campaign to complete',
      );
      expect(done.stats.leads.completed + done.stats.leads['reached-max-retries']).toBe(LEADS);
      const callIds = provider.dials.map((d) => d.request.call_id);
      await eventually(() => new Set(ended()).size === callIds.length, 15_000, 'every call to be told');

      // Every instance answered requests and did some of the work.
      expect([...proxy.served.keys()].sort()).toEqual(proxy.backends.slice().sort());

      // The rate limit counts a token's requests to all three: RATE_LIMIT in its minute, not three times that.
      const second = new Date().getSeconds();
      if (second > 50) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
      const burst = (await cli(env, 'tokens:create', '--user', String(created.json.id))).json.token;
      const statuses: number[] = [];
      for (let i = 0; i < RATE_LIMIT + 60; i += 20)
        statuses.push(...(await Promise.all(Array.from({ length: 20 }, () => call('GET', '/api/user/me', undefined, burst).then((r) => r.status)))));
      expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(60);
    } finally {
      await Promise.all(services.map((s) => s.stop()));
      await provider.stop();
      await hooks.stop();
      await proxy.stop();
    }
    expect(provider.overlaps).toEqual([]);
    const callIds = provider.dials.map((d) => d.request.call_id);
    expect(new Set(callIds).size).toBe(callIds.length);
    expect(provider.maxOpen.get(1)).toBeLessThanOrEqual(CAP);
    // Each call's end was delivered once: the webhook reactor and its dispatcher ran in one instance at a time.
    expect(ended().sort()).toEqual([...callIds].sort());
    // So was each lead's and the campaign's news.
    const news = hooks
      .to('/ended')
      .filter((r) => r.body.event !== 'call.ended')
      .map((r) => `${r.body.event} ${r.body.lead?.id ?? r.body.campaign.id}`);
    expect(news.filter((n) => n.startsWith('lead.'))).toHaveLength(LEADS);
    expect(new Set(news).size).toBe(news.length);

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
  }, 120_000);
});
