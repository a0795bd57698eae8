import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { eventually } from '../support/fake-provider';
import { Receiver } from '../support/receiver';
import { startTestApp } from '../support/test-app';

/** The value of one series of the Prometheus text, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** docs/api.md: `GET /metrics` after a small campaign. */
describe('metrics', () => {
  it('counts requests, events, dials, calls, webhook attempts and leads, and shows no lag once settled', async () => {
    const receiver = new Receiver(() => ({ status: 200, body: { ok: true } }));
    const hooks = (await receiver.start()).url;
    const t = await startTestApp({ METRICS_TOKEN: 'scrape-me', DIAL_INTERVAL_MS: '20', SIMULATED_CALL_STEP_SECONDS: '0', SIMULATED_DIALER_ODDS: 'human:1' });
    try {
      const { token } = await t.createUser();
      const assistant = (
        await t.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, is_webhook_active: true, webhook_url: `${hooks}/hook` } })
      ).body.data.id;
      const campaign = (
        await t.request('POST', '/api/user/campaigns', {
          token,
          body: {
            name: 'M',
            assistant_id: assistant,
            calling_hours: { start: '00:00', end: '24:00' },
            calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
          },
        })
      ).body.data.id;
      for (let i = 0; i < 3; i++) await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: `+1201555${7000 + i}` } });
      await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
      await eventually(
        async () => (await t.request('GET', `/api/user/campaigns/${campaign}`, { token })).body.status === 'completed',
        15_000,
        'the campaign to complete',
      );
      // Three call.ended, three lead.completed and one campaign.completed (docs/api.md).
      await eventually(() => receiver.received.length >= 7, 10_000, 'the webhooks');

      expect((await fetch(`${t.url}/metrics`)).status).toBe(401);
      expect(await (await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).json()).toEqual({ message: 'Unauthenticated.' });
      const text = await eventually(
        async () => {
          const scraped = await (await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer scrape-me' } })).text();
          return sample(scraped, 'webhook_attempts_total{result="delivered"}') === 7 && sample(scraped, 'projection_lag_events') === 0 ? scraped : undefined;
        },
        10_000,
        'the webhooks counted and the projections settled',
      );
      expect(sample(text, 'http_request_duration_seconds_count{route="/api/user/lead",method="POST",status="200"}')).toBe(3);
      expect(sample(text, 'events_appended_total{type="LeadCreated"}')).toBe(3);
      expect(sample(text, 'calls_placed_total{result="accepted"}')).toBe(3);
      expect(sample(text, 'calls_finished_total{status="completed"}')).toBe(3);
      expect(sample(text, 'dial_decisions_total{decision="lead_claimed"}')).toBe(3);
      expect(sample(text, 'leads{status="completed"}')).toBe(3);
      expect(sample(text, 'leads{status="created"}')).toBe(0);
      expect(sample(text, 'scheduler_pass_duration_seconds_count')).toBeGreaterThan(0);
      expect(sample(text, 'projection_lag_seconds')).toBe(0);
      expect(sample(text, 'reactor_lag_events{reactor="place-calls"}')).toBeGreaterThanOrEqual(0);
      // Ids never become labels: a path with an id counts under its route.
      expect(text).not.toMatch(/route="\/api\/user\/campaigns\/\d+"/);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});
