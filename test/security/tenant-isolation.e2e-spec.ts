import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { eventually } from '../support/fake-provider';
import { startTestApp } from '../support/test-app';

const ALL_DAY = { calling_hours: { start: '00:00', end: '24:00' }, calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] };

/** docs/api.md: a campaign that cannot be dialed, whatever its stored data, fails alone. */
describe('one tenant cannot stop another', () => {
  it.each([
    ['calling_hours: []', { calling_hours: [] }],
    ['calling_days: null', { calling_days: null }],
    ['max_concurrent_calls: null', { max_concurrent_calls: null }],
  ])('dials a healthy campaign to its end beside one stored with %s, which shows last_error', async (_name, poison) => {
    const t = await startTestApp({ DIAL_INTERVAL_MS: '20', SIMULATED_CALL_STEP_SECONDS: '0', SIMULATED_DIALER_ODDS: 'human:1' });
    try {
      const healthyUser = await t.createUser();
      const poisonedUser = await t.createUser();
      const campaignOf = async (token: string, name: string) => {
        const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
        const campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name, assistant_id: assistant, max_retries: 0, ...ALL_DAY } })).body
          .data.id;
        for (let i = 0; i < 3; i++) {
          expect(
            (await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: `+1201555${2000 + campaign * 10 + i}` } })).status,
          ).toBe(200);
        }
        return campaign as number;
      };
      // The poisoned campaign has the lower id: a pass reaches it first.
      const poisoned = await campaignOf(poisonedUser.token, 'Poisoned');
      const healthy = await campaignOf(healthyUser.token, 'Healthy');
      // Written straight into the store, as data from an older build or a bad migration would be.
      const store = t.app.get<EventStore>(EVENT_STORE);
      await store.append(
        `campaign-${poisoned}`,
        [{ type: 'CampaignUpdated', data: { campaign_id: poisoned, user_id: poisonedUser.id, changes: poison } }],
        'any',
      );
      await t.app.get(ProjectionRunner).catchUp();
      for (const [token, campaign] of [
        [poisonedUser.token, poisoned],
        [healthyUser.token, healthy],
      ] as const) {
        expect((await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } })).status).toBe(200);
      }
      await eventually(
        async () => (await t.request('GET', `/api/user/campaigns/${healthy}`, { token: healthyUser.token })).body.status === 'completed',
        20_000,
        'the healthy campaign to complete',
      );
      const stuck = await eventually(
        async () => {
          const record = (await t.request('GET', `/api/user/campaigns/${poisoned}`, { token: poisonedUser.token })).body;
          return record.last_error ? record : undefined;
        },
        10_000,
        'the poisoned campaign to show its error',
      );
      expect(stuck.status).toBe('in-progress');
      expect(stuck.last_error.message).toMatch(/^Campaign settings cannot be dialed: /);
      expect(Number.isNaN(Date.parse(stuck.last_error.at))).toBe(false);
      expect((await t.request('GET', `/api/user/calls?campaign_id=${poisoned}`, { token: poisonedUser.token })).body.total).toBe(0);
      expect((await t.request('GET', `/api/user/campaigns/${healthy}`, { token: healthyUser.token })).body.last_error).toBeNull();
    } finally {
      await t.close();
    }
  });

  it("goes on applying a healthy campaign's call results while a poisoned campaign's are parked, and applies those once it is healed", async () => {
    const t = await startTestApp({ DIAL_INTERVAL_MS: '20', SIMULATED_CALL_STEP_SECONDS: '1', SIMULATED_DIALER_ODDS: 'no-answer:1' });
    try {
      const users = [await t.createUser(), await t.createUser()];
      const campaigns: number[] = [];
      for (const [i, { token }] of users.entries()) {
        const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
        const campaign = (
          await t.request('POST', '/api/user/campaigns', {
            token,
            body: { name: `C${i}`, assistant_id: assistant, max_retries: 1, retry_delay_seconds: 0, ...ALL_DAY },
          })
        ).body.data.id;
        for (let n = 0; n < 2; n++)
          await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: `+1201555${3000 + i * 10 + n}` } });
        await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
        campaigns.push(campaign);
      }
      const [poisoned, healthy] = campaigns;
      const get = (i: number) => t.request('GET', `/api/user/campaigns/${campaigns[i]}`, { token: users[i].token }).then((r) => r.body);
      await eventually(async () => (await get(0)).stats.calls_in_flight > 0, 10_000, 'calls in flight');
      // Poisoned while its calls are in flight: their results cannot be applied (no next window can be found).
      const store = t.app.get<EventStore>(EVENT_STORE);
      const rewrite = (changes: object) =>
        store.append(`campaign-${poisoned}`, [{ type: 'CampaignUpdated', data: { campaign_id: poisoned, user_id: users[0].id, changes } }], 'any');
      await rewrite({ calling_hours: [] });
      await eventually(async () => (await get(1)).status === 'completed', 25_000, 'the healthy campaign to complete');
      const stuck = await eventually(async () => ((await get(0)).last_error ? get(0) : undefined), 10_000, 'the poisoned campaign to show its error');
      expect(stuck.status).toBe('in-progress');
      expect(stuck.last_error.message).toMatch(/^Campaign settings cannot be dialed: /);
      // Healed, its parked results are applied in order and it runs to its end.
      await rewrite({ calling_hours: { start: '00:00', end: '24:00' } });
      await eventually(async () => (await get(0)).status === 'completed', 25_000, 'the healed campaign to complete');
      const leads = (await t.request('GET', `/api/user/leads?campaign_id=${poisoned}`, { token: users[0].token })).body;
      expect(leads.map((l: { status: string }) => l.status)).toEqual(['reached-max-retries', 'reached-max-retries']);
      expect(healthy).toBeGreaterThan(poisoned);
    } finally {
      await t.close();
    }
  }, 60_000);
});
