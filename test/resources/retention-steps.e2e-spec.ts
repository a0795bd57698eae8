import { CallsProjection } from '../../src/calls/calls.projection';
import { RetentionSweep } from '../../src/privacy/retention/retention-sweep';
import { ManualClock } from '../../src/shared/clock';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { allDayCampaign } from '../support/all-day-campaign';
import { eventually } from '../support/fake-provider';
import { startTestApp, TestApp } from '../support/test-app';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** More than one step takes (a thousand calls): the first sweep over both hours is two steps. */
const CALLS_AN_HOUR = 510;

/** docs/privacy.md: a first sweep over a long history erases it in steps, none rewriting more than a thousand calls. */
describe('retention over a long history', () => {
  const start = new Date('2026-05-04T10:00:00Z');
  const clock = new ManualClock(start);
  let t: TestApp;
  let owner: { token: string; organisation_id: number };

  const dialHour = async (hour: number) => {
    clock.set(new Date(start.getTime() + hour * HOUR));
    const campaign = await allDayCampaign(t, owner.token, { name: `Hour ${hour}`, max_retries: 0 });
    const rows = Array.from({ length: CALLS_AN_HOUR }, (_, i) => `+1201555${String(hour * CALLS_AN_HOUR + i).padStart(4, '0')},Lead ${i}`);
    const imported = await fetch(`${t.url}/api/user/campaigns/${campaign}/leads/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/csv', accept: 'application/json' },
      body: `phone_number,first_name\n${rows.join('\n')}\n`,
    });
    const id = ((await imported.json()) as { data: { id: number } }).data.id;
    await eventually(
      async () => (await t.request('GET', `/api/user/lead-imports/${id}`, { token: owner.token })).body.status !== 'running',
      20_000,
      'the import',
    );
    await t.request('POST', '/api/user/campaigns/update-status', { token: owner.token, body: { campaign_id: campaign, action: 'start' } });
    await eventually(
      async () => (await t.request('GET', `/api/user/campaigns/${campaign}`, { token: owner.token })).body.status === 'completed',
      60_000,
      `hour ${hour}'s campaign to complete`,
    );
  };

  beforeAll(async () => {
    t = await startTestApp({ DIAL_INTERVAL_MS: '20', SIMULATED_CALL_STEP_SECONDS: '0', SIMULATED_DIALER_ODDS: 'human:1' }, { clock });
    owner = await t.createUser();
    await dialHour(0);
    await dialHour(1);
  }, 150_000);
  afterAll(() => t.close());

  it('erases every transcript, one step per thousand calls at most, the steps following one another', async () => {
    const calls = t.app.get(CallsProjection).calls;
    expect(await calls.count({ user_id: owner.organisation_id })).toBe(2 * CALLS_AN_HOUR);
    await t.request('PUT', '/api/user/settings', { token: owner.token, body: { retention: { transcripts_days: 1 } } });
    clock.set(new Date(start.getTime() + DAY + 3 * HOUR));
    await t.app.get(RetentionSweep).sweepOnce();

    const steps = (await t.app.get<EventStore>(EVENT_STORE).readStream(`retention-${owner.organisation_id}`)).map(
      (e) => e.data as { from: string; until: string },
    );
    expect(steps.length).toBe(2);
    expect(steps[1].from).toBe(steps[0].until);
    // The second hour's calls begin a step of their own: the first thousand and one calls reach into it.
    expect(steps[1].from).toBe(new Date(start.getTime() + HOUR).toISOString());
    const kept = (await calls.find({ user_id: owner.organisation_id })).filter((call) => call.transcript !== '[erased]');
    expect(kept).toEqual([]);
  });
});
