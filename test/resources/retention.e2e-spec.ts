import { ManualClock } from '../../src/shared/clock';
import { RetentionSweep } from '../../src/privacy/retention/retention-sweep';
import { allDayCampaign } from '../support/all-day-campaign';
import { eventually } from '../support/fake-provider';
import { startTestApp, TestApp } from '../support/test-app';
import { Receiver } from '../support/receiver';
import { WebhookDeliveriesProjection } from '../../src/webhooks/webhook-deliveries.projection';

const DAY = 24 * 3600_000;
const MINUTE = 60_000;

/** docs/privacy.md: retention per organisation, swept with a clock: values erased within an hour of falling due, nothing else touched. */
describe('retention of call values', () => {
  const start = new Date('2026-05-04T10:00:00Z');
  const clock = new ManualClock(start);
  let t: TestApp;
  let owner: { token: string };
  let other: { token: string };
  // The owner's calls are sent on when they end: their bodies keep the transcript no longer than the calls do.
  const hooks = new Receiver(() => ({ status: 200, body: { ok: true } }));
  const ended = () => hooks.received.find((hook) => hook.body.event === 'call.ended');
  const sentBodies = async () =>
    (await t.app.get(WebhookDeliveriesProjection).deliveries.find({ event: 'call.ended' })).map((d) => d.payload.call as Record<string, unknown>);

  const callsOf = async (token: string) =>
    (await t.request('GET', '/api/user/calls?per_page=100', { token })).body.data as Array<{
      transcript: string | null;
      variables: Record<string, unknown>;
      status: string;
      duration: number;
    }>;

  const dialedCampaign = async (token: string, assistant: Record<string, unknown> = {}) => {
    const campaign = await allDayCampaign(t, token, { name: 'Retained', max_retries: 0 }, assistant);
    await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: '+12015550190', variables: { first_name: 'Rita' } } });
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    await eventually(
      async () => (await t.request('GET', `/api/user/campaigns/${campaign}`, { token })).body.status === 'completed',
      20_000,
      'campaign to complete',
    );
  };

  beforeAll(async () => {
    t = await startTestApp({ DIAL_INTERVAL_MS: '20', SIMULATED_CALL_STEP_SECONDS: '0', SIMULATED_DIALER_ODDS: 'human:1' }, { clock });
    await hooks.start();
    owner = await t.createUser();
    other = await t.createUser();
    await dialedCampaign(owner.token, { is_webhook_active: true, webhook_url: `${hooks.url}/ended` });
    // The same URL gets the lead's and the campaign's webhooks, in whatever order they are delivered.
    await eventually(async () => ended() !== undefined, 20_000, 'the call.ended webhook');
    await dialedCampaign(other.token);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await hooks.stop();
  });

  it('is set per kind by admins and owners: a kind left out keeps its value, null keeps everything, 0 is refused', async () => {
    const set = await t.request('PUT', '/api/user/settings', { token: owner.token, body: { retention: { transcripts_days: 1 } } });
    expect(set.status).toBe(200);
    expect(set.body.data.retention).toEqual({ transcripts_days: 1, recordings_days: null, variables_days: null });
    const more = await t.request('PUT', '/api/user/settings', { token: owner.token, body: { retention: { variables_days: 3 } } });
    expect(more.body.data.retention).toEqual({ transcripts_days: 1, recordings_days: null, variables_days: 3 });
    expect(more.body.data.quiet_hours).toBeDefined();
    expect((await t.request('PUT', '/api/user/settings', { token: owner.token, body: { retention: { recordings_days: 0 } } })).status).toBe(422);
    const editor = await t.request('POST', '/api/user/members', { token: owner.token, body: { email: 'editor-retention@example.com', role: 'editor' } });
    expect((await t.request('PUT', '/api/user/settings', { token: editor.body.data.token, body: { retention: { transcripts_days: 1 } } })).status).toBe(403);
    expect((await t.request('GET', '/api/user/settings', { token: owner.token })).body.retention).toEqual({
      transcripts_days: 1,
      recordings_days: null,
      variables_days: 3,
    });
  });

  it('erases transcripts within an hour after a day, never before; variables, statuses and another organisation untouched', async () => {
    const sweep = t.app.get(RetentionSweep);
    const before = await callsOf(owner.token);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((call) => call.transcript !== null && call.transcript !== '[erased]')).toBe(true);
    expect(ended()!.body.call.transcript).toContain('thanks for calling');
    const sentBefore = await sentBodies();
    expect(sentBefore.map((call) => call.transcript)).toEqual([ended()!.body.call.transcript]);

    clock.set(new Date(start.getTime() + DAY - 10 * MINUTE));
    await sweep.sweepOnce();
    expect(await callsOf(owner.token)).toEqual(before);

    clock.set(new Date(start.getTime() + DAY + 20 * MINUTE));
    await sweep.sweepOnce();
    const after = await callsOf(owner.token);
    expect(after.map((call) => call.transcript)).toEqual(before.map(() => '[erased]'));
    expect(after.map(({ variables, status, duration }) => ({ variables, status, duration }))).toEqual(
      before.map(({ variables, status, duration }) => ({ variables, status, duration })),
    );
    expect((await callsOf(other.token)).every((call) => call.transcript !== '[erased]')).toBe(true);
    // What was sent on keeps the transcript no longer either; the body's other values stay.
    const sentAfter = await sentBodies();
    expect(sentAfter.map((call) => call.transcript)).toEqual(['[erased]']);
    expect(sentAfter.map(({ transcript: _t, ...rest }) => rest)).toEqual(sentBefore.map(({ transcript: _t, ...rest }) => rest));
    // The log reads so too: the audit trail opens the call's events with the key gone.
    const audit = JSON.stringify((await t.request('GET', '/api/user/audit?per_page=100', { token: owner.token })).body);
    expect(audit).not.toContain('thanks for calling');
    expect(JSON.stringify((await t.request('GET', '/api/user/audit?per_page=100', { token: other.token })).body)).toContain('thanks for calling');
  });

  it('erases variables when their days fall due, and a sweep again changes nothing', async () => {
    const sweep = t.app.get(RetentionSweep);
    clock.set(new Date(start.getTime() + 3 * DAY + 20 * MINUTE));
    await sweep.sweepOnce();
    const after = await callsOf(owner.token);
    expect(after.every((call) => call.variables.first_name === '[erased]')).toBe(true);
    expect((await sentBodies()).map((call) => (call.variables as Record<string, unknown>).first_name)).toEqual(['[erased]']);
    expect(await sweep.sweepOnce()).toBe(0);
    expect(await callsOf(owner.token)).toEqual(after);
  });
});
