import { EVENT_STORE, EventStore } from '../src/infrastructure/event-store/event-store.port';
import { ProjectionRunner } from '../src/infrastructure/projections/projection-runner';
import { requiredAssistantSettings } from '../src/testing/assistant.fixture';
import { eventually } from './support/fake-provider';
import { startTestApp } from './support/test-app';

const ALL_DAY = { calling_hours: { start: '00:00', end: '24:00' }, calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] };

/** Contract §12: a campaign that cannot be dialed, whatever its stored data, fails alone. */
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
        const campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name, assistant_id: assistant, max_retries: 0, ...ALL_DAY } })).body.data.id;
        for (let i = 0; i < 3; i++) {
          expect((await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: `+1201555${2000 + campaign * 10 + i}` } })).status).toBe(200);
        }
        return campaign as number;
      };
      // The poisoned campaign has the lower id: a pass reaches it first.
      const poisoned = await campaignOf(poisonedUser.token, 'Poisoned');
      const healthy = await campaignOf(healthyUser.token, 'Healthy');
      // Written straight into the store, as data from an older build or a bad migration would be.
      const store = t.app.get<EventStore>(EVENT_STORE);
      await store.append(`campaign-${poisoned}`, [{ type: 'CampaignUpdated', data: { campaign_id: poisoned, user_id: poisonedUser.id, changes: poison } }], 'any');
      await t.app.get(ProjectionRunner).catchUp();
      for (const [token, campaign] of [[poisonedUser.token, poisoned], [healthyUser.token, healthy]] as const) {
        expect((await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } })).status).toBe(200);
      }
      await eventually(async () => (await t.request('GET', `/api/user/campaigns/${healthy}`, { token: healthyUser.token })).body.status === 'completed', 20_000, 'the healthy campaign to complete');
      const stuck = await eventually(async () => {
        const record = (await t.request('GET', `/api/user/campaigns/${poisoned}`, { token: poisonedUser.token })).body;
        return record.last_error ? record : undefined;
      }, 10_000, 'the poisoned campaign to show its error');
      expect(stuck.status).toBe('in-progress');
      expect(stuck.last_error.message).toMatch(/^Campaign settings cannot be dialed: /);
      expect(Number.isNaN(Date.parse(stuck.last_error.at))).toBe(false);
      expect((await t.request('GET', `/api/user/calls?campaign_id=${poisoned}`, { token: poisonedUser.token })).body.total).toBe(0);
      expect((await t.request('GET', `/api/user/campaigns/${healthy}`, { token: healthyUser.token })).body.last_error).toBeNull();
    } finally {
      await t.close();
    }
  });
});
