import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { eventually } from '../support/fake-provider';
import { startTestApp } from '../support/test-app';

/** The default dialer: a whole campaign runs to its end with no telephony at all, the same way for the same seed (one call at a time, so draws meet calls in one order). */
describe('the simulated dialer', () => {
  const run = async (seed: string) => {
    const t = await startTestApp({
      DIAL_INTERVAL_MS: '20',
      SIMULATED_CALL_STEP_SECONDS: '0',
      SIMULATED_DIALER_SEED: seed,
      SIMULATED_DIALER_ODDS: 'human:1,machine:1,busy:1,no-answer:1,failed:1',
    });
    try {
      const { token } = await t.createUser();
      const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
      const body = {
        name: 'Sim',
        assistant_id: assistant,
        max_retries: 2,
        retry_delay_seconds: 0,
        max_concurrent_calls: 1,
        calling_hours: { start: '00:00', end: '24:00' },
        calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      };
      const campaign = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id;
      for (let i = 0; i < 10; i++)
        await t.request('POST', '/api/user/lead', {
          token,
          body: { campaign_id: campaign, phone_number: `+1201555${1100 + i}`, secondary_contacts: [{ phone_number: `+1201555${1200 + i}` }] },
        });
      await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
      await eventually(
        async () => (await t.request('GET', `/api/user/campaigns/${campaign}`, { token })).body.status === 'completed',
        20_000,
        'campaign to complete',
      );
      const calls = (await t.request('GET', '/api/user/calls?per_page=100', { token })).body;
      const leads = (await t.request('GET', '/api/user/leads', { token })).body;
      return { statuses: calls.data.map((c: { status: string }) => c.status).sort(), leads: leads.map((l: { status: string }) => l.status) };
    } finally {
      await t.close();
    }
  };

  it('runs a campaign to completion through every outcome, repeatably for a seed', async () => {
    const first = await run('5');
    expect(first.leads.every((s: string) => s === 'completed' || s === 'reached-max-retries')).toBe(true);
    expect(new Set(first.statuses)).toEqual(new Set(['completed', 'busy', 'no-answer', 'failed']));
    expect(await run('5')).toEqual(first);
  });

  it('keeps answering the API while it dials a large campaign', async () => {
    const t = await startTestApp({ DIAL_INTERVAL_MS: '20', SIMULATED_CALL_STEP_SECONDS: '0', SIMULATED_DIALER_ODDS: 'human:1,no-answer:1' });
    try {
      const { token, id: userId } = await t.createUser();
      const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
      const body = {
        name: 'Large',
        assistant_id: assistant,
        max_retries: 0,
        max_concurrent_calls: 100,
        calling_hours: { start: '00:00', end: '24:00' },
        calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      };
      const campaign = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id;
      const store = t.app.get<EventStore>(EVENT_STORE);
      for (let i = 0; i < 3000; i++) {
        const id = await store.nextId('lead');
        await store.append(
          `lead-${id}`,
          [
            {
              type: 'LeadCreated',
              data: { lead_id: id, user_id: userId, campaign_id: campaign, phone_number: `+1201${5000000 + i}`, variables: {}, secondary_contacts: [] },
            },
          ],
          'no_stream',
        );
      }
      await t.app.get(ProjectionRunner).catchUp();
      await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
      await eventually(
        async () => (await t.request('GET', `/api/user/calls?campaign_id=${campaign}&per_page=1`, { token })).body.total > 0,
        20_000,
        'dialing to begin',
      );
      // Asked while dialing goes on, answered while it still goes on: the dialer does not starve the API.
      const midway = (await t.request('GET', `/api/user/campaigns/${campaign}`, { token })).body;
      expect(midway.status).toBe('in-progress');
      expect(midway.stats.leads.created).toBeGreaterThan(0);
      await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'stop' } });
    } finally {
      await t.close();
    }
  });
});
