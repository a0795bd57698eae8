import { DialScheduler } from '../../src/dialing/dial-scheduler';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { LeadsQueries } from '../../src/leads/leads.queries';
import { eventually } from '../support/fake-provider';
import { EVERY_DAY, World, campaign, lead, leadsOf, setStatus, world } from '../support/dialing-world';

const ALL_DAY = { calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY };
// Wednesday 2025-01-15 10:00 in New York.
const NOW = '2025-01-15T15:00:00Z';

/** The reasons the calls of a campaign were recorded never dialed, by number. */
async function notDialed(w: World, campaignId: number): Promise<Record<string, string>> {
  const events = await w.t.app.get<EventStore>(EVENT_STORE).readAll(0, 100_000, ['CallInitiated', 'CallOutcomeRecorded']);
  const numbers = new Map(events.filter((e) => e.type === 'CallInitiated').map((e) => [e.data.call_id, e.data.client_phone_number]));
  return Object.fromEntries(
    events
      .filter((e) => e.type === 'CallOutcomeRecorded' && e.data.campaign_id === campaignId && e.data.not_dialed)
      .map((e) => [numbers.get(e.data.call_id), e.data.not_dialed]),
  );
}

const stop = async (w: World, id: number) => expect((await setStatus(w, id, 'stop')).body.message).toBe('Campaign stopped successfully.');

describe('dialing through a provider that takes its time to accept each dial (docs/dialing.md)', () => {
  describe('with no limit of its own', () => {
    let w: World;
    beforeAll(async () => (w = await world(NOW, {}, {}, 5, 1000)));
    afterAll(async () => {
      await w.t.close();
      await w.provider.stop();
    });

    it("sends two users' dials in parallel, up to their campaigns' caps, neither waiting on the other", async () => {
      const other = { ...w, token: (await w.t.createUser()).token };
      const ids = [await campaign(w, { max_concurrent_calls: 20, ...ALL_DAY }), await campaign(other, { max_concurrent_calls: 20, ...ALL_DAY })];
      for (let i = 0; i < 20; i++) {
        await lead(w, ids[0], `+1201555${String(1000 + i)}`);
        await lead(other, ids[1], `+1201555${String(2000 + i)}`);
      }
      const started = Date.now();
      await setStatus(w, ids[0], 'start');
      await setStatus(other, ids[1], 'start');
      // Each dial is held a second by the provider: one at a time, 40 would take 40 s.
      await eventually(() => w.provider.maxOpenRequests >= 32, 10_000, '32 dial requests open at once');
      expect(w.provider.maxOpenRequestsAt - started).toBeLessThan(5000);
      await eventually(() => w.provider.dials.length === 40, 15_000, 'every lead dialed');
      expect(new Set(w.provider.dials.map((d) => d.request.to)).size).toBe(40);
    }, 30_000);
  });

  describe('that takes one dial request at a time', () => {
    let w: World;
    beforeAll(async () => (w = await world(NOW, {}, { DIALER_MAX_OPEN_REQUESTS: '1' }, 5, 700)));
    afterAll(async () => {
      await w.t.close();
      await w.provider.stop();
    });
    const dialedTo = () => w.provider.dials.map((d) => d.request.to);

    it('sends no dial of a campaign stopped while they waited: no attempt used, and every lead dialed once after a restart', async () => {
      const id = await campaign(w, { max_concurrent_calls: 5, ...ALL_DAY });
      const numbers = ['+12015553001', '+12015553002', '+12015553003', '+12015553004'];
      for (const n of numbers) await lead(w, id, n);
      await setStatus(w, id, 'start');
      await eventually(() => w.provider.openRequests === 1, 5000, 'the first dial on the wire');
      await stop(w, id);
      const onTheWire = [...w.provider.openTo];
      await eventually(async () => Object.keys(await notDialed(w, id)).length === 3, 10_000, 'the waiting dials to be held');
      await new Promise((r) => setTimeout(r, 1000));
      expect(dialedTo()).toEqual(onTheWire);
      expect(Object.values(await notDialed(w, id))).toEqual(['campaign-not-running', 'campaign-not-running', 'campaign-not-running']);
      const waiting = (await leadsOf(w, id)).filter((l: { phone_number: string }) => l.phone_number !== onTheWire[0]);
      expect(waiting.map((l: { status: string; attempts: number }) => [l.status, l.attempts])).toEqual([
        ['created', 0],
        ['created', 0],
        ['created', 0],
      ]);

      await setStatus(w, id, 'start');
      await eventually(() => w.provider.dials.length === 4, 15_000, 'the held leads to be dialed after the restart');
      expect(dialedTo().sort()).toEqual([...numbers].sort());
    }, 40_000);

    it('sends no dial whose window closed while it waited: its turn moves to the next window, no attempt used', async () => {
      w.clock.set('2025-01-15T16:59:58Z');
      const before = w.provider.dials.length;
      const id = await campaign(w, { max_concurrent_calls: 5, calling_hours: { start: '09:00', end: '12:00' }, calling_days: EVERY_DAY });
      for (const n of ['+12015554001', '+12015554002', '+12015554003']) await lead(w, id, n);
      await setStatus(w, id, 'start');
      await eventually(() => w.provider.openRequests === 1, 5000, 'the first dial on the wire');
      // 12:00:01 in New York: the assistant's window has closed.
      w.clock.set('2025-01-15T17:00:01Z');
      await eventually(async () => Object.keys(await notDialed(w, id)).length === 2, 10_000, 'the waiting dials to be refused');
      expect(w.provider.dials.length - before).toBe(1);
      expect(Object.values(await notDialed(w, id))).toEqual(['outside-window', 'outside-window']);
      const refused = Object.keys(await notDialed(w, id));
      const leads = await eventually(async () => {
        const found = (await leadsOf(w, id)).filter((l: any) => refused.includes(l.phone_number) && l.next_attempt_at);
        return found.length === 2 && found;
      });
      expect(leads.map((l: any) => [l.status, l.attempts, l.next_attempt_at])).toEqual([
        ['created', 0, '2025-01-16T14:00:00.000Z'],
        ['created', 0, '2025-01-16T14:00:00.000Z'],
      ]);
      await stop(w, id);
    }, 30_000);

    it('sends no dial to a number listed, nor for a lead deleted, while it waited', async () => {
      w.clock.set(NOW);
      const before = w.provider.dials.length;
      const id = await campaign(w, { max_concurrent_calls: 5, ...ALL_DAY });
      const leads = [];
      for (const n of ['+12015555001', '+12015555002', '+12015555003']) leads.push(await lead(w, id, n));
      await setStatus(w, id, 'start');
      await eventually(() => w.provider.openRequests === 1, 5000, 'the first dial on the wire');
      const [listed, deleted] = leads.filter((l) => !w.provider.openTo.has(l.phone_number));
      await w.t.request('POST', '/api/user/dnc', { token: w.token, body: { phone_numbers: [listed.phone_number] } });
      expect((await w.t.request('DELETE', `/api/user/leads/${deleted.id}`, { token: w.token })).status).toBe(200);
      await eventually(async () => Object.keys(await notDialed(w, id)).length === 2, 10_000, 'the waiting dials to be refused');
      await new Promise((r) => setTimeout(r, 1000));
      expect(w.provider.dials.length - before).toBe(1);
      expect(await notDialed(w, id)).toEqual({ [listed.phone_number]: 'do-not-call', [deleted.phone_number]: 'lead-not-live' });
      const ended = await eventually(async () => (await leadsOf(w, id)).find((l: any) => l.id === listed.id && l.status === 'completed'));
      expect(ended).toMatchObject({ status: 'completed', stopped_reason: 'do-not-call', attempts: 0 });
      await stop(w, id);
    }, 30_000);
  });

  describe('two schedulers at once on one campaign', () => {
    it('never exceed max_concurrent_calls: a holder paused past its lease wakes to find the places taken', async () => {
      const numbers = ['+12015556001', '+12015556002', '+12015556003', '+12015556004', '+12015556005', '+12015556006'];
      const scripts = Object.fromEntries(numbers.map((n) => [n, ['silence' as const]]));
      const silent = await world(NOW, scripts, {}, 5, 0);
      try {
        const id = await campaign(silent, { max_concurrent_calls: 2, ...ALL_DAY });
        for (const n of numbers) await lead(silent, id, n);
        await setStatus(silent, id, 'start');
        await eventually(() => silent.provider.dials.length === 2, 5000, 'the first two dials');
        // The second scheduler read the campaign's calls in flight before the first claimed any.
        jest.spyOn(silent.t.app.get(LeadsQueries), 'inFlightByCampaign').mockResolvedValue(new Map());
        const scheduler = silent.t.app.get(DialScheduler);
        expect(await Promise.all([scheduler.pass(), scheduler.pass()])).toEqual([0, 0]);
        await new Promise((r) => setTimeout(r, 500));
        expect(silent.provider.dials).toHaveLength(2);
        const claims = await silent.t.app.get<EventStore>(EVENT_STORE).readAll(0, 100_000, ['LeadCallStarted']);
        expect(claims).toHaveLength(2);
      } finally {
        await silent.t.close();
        await silent.provider.stop();
      }
    }, 30_000);
  });
});
