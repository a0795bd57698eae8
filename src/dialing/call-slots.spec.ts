import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallDocument } from '../calls/calls.projection';
import { CallsQueries } from '../calls/calls.queries';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { Upcasters } from '../infrastructure/event-sourcing/upcasters';
import { SqliteEventStore } from '../infrastructure/event-store/sqlite-event-store';
import { LeadStates } from '../leads/lead-states';
import { LeadsQueries } from '../leads/leads.queries';
import { ManualClock } from '../shared/clock';
import { CallSlots, runtimeSlotsStream } from './call-slots';
import { callSlotsStream } from './call-slots.decider';

/** The calls read model as far as the places need it: each call's status. */
const callsShowing = (statuses: Map<number, string>) =>
  ({
    getMany: async (ids: number[]) => ids.flatMap((id) => (statuses.has(id) ? [{ id, status: statuses.get(id) } as CallDocument] : [])),
  }) as unknown as CallsQueries;

/** docs/real-calls.md: a runtime's places among calls in flight, on a stream read only from its last carry-forward. */
describe('call slots on the event store', () => {
  it('stays short to read however many calls took and freed a place, and keeps the places held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slots-'));
    const store = new SqliteEventStore(join(dir, 'events.db'));
    try {
      const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
      const leads = { callsInFlightAnywhere: async () => [] } as unknown as LeadsQueries;
      const slots = new CallSlots(new CommandRunner(store, clock, new Upcasters()), leads, {} as LeadStates, callsShowing(new Map()), clock, store);
      expect(await slots.takeOnRuntime('vapi', 2, [{ call_id: 1, lead_id: 1 }])).toHaveLength(1);
      for (let call = 2; call <= 300; call++) {
        expect(await slots.takeOnRuntime('vapi', 2, [{ call_id: call, lead_id: call }])).toHaveLength(1);
        await slots.freeOnRuntime('vapi', [call]);
      }
      const read = await store.readStream(runtimeSlotsStream('vapi'));
      expect(read.length).toBeLessThanOrEqual(100);
      expect(read[0].type).toBe('CallSlotsCarriedForward');
      // Call 1 still holds its place: one more fits under the cap of 2, a second does not.
      expect(
        await slots.takeOnRuntime('vapi', 2, [
          { call_id: 400, lead_id: 400 },
          { call_id: 401, lead_id: 401 },
        ]),
      ).toEqual([{ call_id: 400, lead_id: 400 }]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives back the place of a call the read model shows ended at the next take, in its one append; a call not shown ended keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slots-'));
    const store = new SqliteEventStore(join(dir, 'events.db'));
    try {
      const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
      const statuses = new Map<number, string>();
      const leads = { callsInFlight: async () => [] } as unknown as LeadsQueries;
      const slots = new CallSlots(new CommandRunner(store, clock, new Upcasters()), leads, {} as LeadStates, callsShowing(statuses), clock, store);
      expect(await slots.take(7, 1, [{ call_id: 1, lead_id: 1 }])).toHaveLength(1);
      statuses.set(1, 'in-progress');
      expect(await slots.take(7, 1, [{ call_id: 2, lead_id: 2 }])).toEqual([]);
      statuses.set(1, 'completed');
      const [appends, reads] = [jest.spyOn(store, 'append'), jest.spyOn(store, 'readStream')];
      expect(await slots.take(7, 1, [{ call_id: 2, lead_id: 2 }])).toEqual([{ call_id: 2, lead_id: 2 }]);
      // Judged from the places last seen here before the take: one append, no read of the stream.
      expect(appends).toHaveBeenCalledTimes(1);
      expect(reads).not.toHaveBeenCalled();
      const events = await store.readStream(callSlotsStream(7));
      expect(events.map((e) => [e.revision, e.type, e.data])).toEqual([
        [0, 'CallSlotsTaken', { slots: [{ call_id: 1, lead_id: 1 }], at: '2026-01-01T00:00:00.000Z' }],
        [1, 'CallSlotsFreed', { call_ids: [1] }],
        [2, 'CallSlotsTaken', { slots: [{ call_id: 2, lead_id: 2 }], at: '2026-01-01T00:00:00.000Z' }],
      ]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
