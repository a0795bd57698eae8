import { DialScheduler } from '../../src/dialing/dial-scheduler';
import { LeadsProjection } from '../../src/leads/leads.projection';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { ManualClock } from '../../src/shared/clock';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { eventually, FakeProvider, Script } from './fake-provider';
import { startTestApp, TestApp } from './test-app';

/** A service dialing through a fake provider on loopback, on a clock the test moves. */
export const SECRET = 'dialing-test-secret';
export const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export interface World {
  t: TestApp;
  clock: ManualClock;
  provider: FakeProvider;
  token: string;
}

export async function world(
  now: string,
  scripts: Record<string, Script[]>,
  env: Record<string, string> = {},
  stepDelayMs = 5,
  acceptDelayMs = 0,
): Promise<World> {
  const clock = new ManualClock(new Date(now));
  const provider = new FakeProvider(
    SECRET,
    (to, attempt) => {
      const script = scripts[to] ?? ['human'];
      return script[Math.min(attempt, script.length) - 1];
    },
    stepDelayMs,
    acceptDelayMs,
  );
  const url = await provider.start();
  const t = await startTestApp({ DIALER: 'http', DIALER_URL: url, TELEPHONY_SECRET: SECRET, DIAL_INTERVAL_MS: '30', ...env }, { clock });
  const { token } = await t.createUser();
  return { t, clock, provider, token };
}

/** Stops the world's service and its provider. */
export async function closeWorld(w: World): Promise<void> {
  await w.t.close();
  await w.provider.stop();
}

export async function campaign(w: World, settings: object, assistant: object = {}): Promise<number> {
  const assistantId = (
    await w.t.request('POST', '/api/user/assistant', { token: w.token, body: { ...requiredAssistantSettings, max_call_duration: 20, ...assistant } })
  ).body.data.id;
  const res = await w.t.request('POST', '/api/user/campaigns', { token: w.token, body: { name: 'Dialing', assistant_id: assistantId, ...settings } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

export const lead = async (w: World, campaign_id: number, phone_number: string, secondary: string[] = []) =>
  (
    await w.t.request('POST', '/api/user/lead', {
      token: w.token,
      body: { campaign_id, phone_number, secondary_contacts: secondary.map((p) => ({ phone_number: p })) },
    })
  ).body.data;
export const setStatus = (w: World, campaign_id: number, action: 'start' | 'stop') =>
  w.t.request('POST', '/api/user/campaigns/update-status', { token: w.token, body: { campaign_id, action } });
export const getCampaign = async (w: World, id: number) => (await w.t.request('GET', `/api/user/campaigns/${id}`, { token: w.token })).body;
export const leadsOf = async (w: World, id: number) => (await w.t.request('GET', `/api/user/leads?campaign_id=${id}`, { token: w.token })).body;
/** Whether every lead's call in flight is a silent one at the provider: none waits to be sent, nor for its end to be applied. */
const endsApplied = async (w: World) => {
  const silent = new Set(w.provider.dials.filter((d) => d.script === 'silence' && !d.endedAt).map((d) => d.request.call_id));
  const inFlight = await w.t.app.get(LeadsProjection).leads.find({ in_flight: true });
  return inFlight.every((lead) => silent.has(lead.in_flight_call_id));
};

/**
 * Dialing has settled: a pass claims nothing, the read models show every claim made so far (the
 * scheduler's own pass may run beside this one), and every lead in flight is on a silent call.
 */
export const settled = (w: World) =>
  eventually(
    async () => {
      if ((await w.t.app.get(DialScheduler).pass()) !== 0) return false;
      await w.t.app.get(ProjectionRunner).waitFor(await w.t.app.get<EventStore>(EVENT_STORE).headPosition());
      if (!w.provider.dials.every((d) => d.endedAt || d.script === 'silence') || !(await endsApplied(w))) return false;
      await new Promise((r) => setTimeout(r, 60));
      return (await w.t.app.get(DialScheduler).pass()) === 0 && (await endsApplied(w));
    },
    15_000,
    'dialing to settle',
  );
