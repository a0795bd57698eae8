import { deciderSpec } from '../testing/decider-spec';
import { CallSlotsCommand, CallSlotsEvent, EarlierSlotsNeeded, SlotStatus, callSlotsDecider } from './call-slots.decider';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const AT = NOW.toISOString();
const { given } = deciderSpec(callSlotsDecider, NOW);
const slot = (call_id: number) => ({ call_id, lead_id: call_id * 10 });
const taken = (...ids: number[]): CallSlotsEvent => ({ type: 'CallSlotsTaken', data: { slots: ids.map(slot), at: AT } });
const freed = (...ids: number[]): CallSlotsEvent => ({ type: 'CallSlotsFreed', data: { call_ids: ids } });
const take = (ids: number[], capacity: number, statuses: Record<number, SlotStatus> = {}, earlier: number[] | null = []): CallSlotsCommand => ({
  type: 'TakeCallSlots',
  campaignId: 7,
  wanted: ids.map(slot),
  capacity,
  statuses: new Map(Object.entries(statuses).map(([id, status]) => [Number(id), status])),
  earlier: earlier && earlier.map(slot),
});

describe("a campaign's places among its calls in flight (docs/dialing.md: max_concurrent_calls where the claim is written)", () => {
  it('takes a place for each call wanted while the campaign is under its cap, in order', () => {
    given([taken(1)])
      .when(take([2, 3], 3))
      .then([taken(2, 3)]);
    given([taken(1, 2)])
      .when(take([3, 4, 5], 3))
      .then([taken(3)]);
  });

  it('takes none at the cap, whoever asks: a second scheduler sees the first one’s places', () => {
    const first = given([taken(1)]).when(take([2, 3], 3))();
    given([taken(1), ...first])
      .when(take([4, 5], 3))
      .then([]);
  });

  it('frees the places of calls their leads no longer show in flight, and takes them', () => {
    given([taken(1, 2, 3)])
      .when(take([4, 5], 3, { 1: 'gone', 2: 'live' }))
      .then([freed(1), taken(4)]);
  });

  it('opens a stream never written with the calls already in flight, once they are read', () => {
    given([])
      .when(take([4], 3, {}, null))
      .thenThrows(EarlierSlotsNeeded);
    given([])
      .when(take([4, 5], 3, {}, [1, 2]))
      .then([taken(1, 2), taken(4)]);
    // Opened, it needs them no more, even when nothing was taken.
    given([taken(1), freed(1)])
      .when(take([4], 3, {}, null))
      .then([taken(4)]);
  });

  it('never takes a second place for a call that holds one', () => {
    given([taken(1)])
      .when(take([1, 2], 3))
      .then([taken(2)]);
  });

  it('frees the places of calls that ended or whose claims were not made, and only those held', () => {
    given([taken(1, 2)])
      .when({ type: 'FreeCallSlots', campaignId: 7, callIds: [2, 9] })
      .then([freed(2)]);
    given([taken(1), freed(1)])
      .when({ type: 'FreeCallSlots', campaignId: 7, callIds: [1] })
      .then([]);
  });

  it('carries the places held forward every 100 events, so the stream is read from there; decides the same from either', () => {
    const history: CallSlotsEvent[] = [];
    for (let call = 1; call <= 49; call++) history.push(taken(call), freed(call));
    history.push(taken(100));
    // The hundredth event: the places carried forward after it.
    const decided = given(history).when(take([101], 5))();
    expect(decided).toEqual([
      taken(101),
      {
        type: 'CallSlotsCarriedForward',
        data: {
          held: [
            { ...slot(100), at: AT },
            { ...slot(101), at: AT },
          ],
        },
      },
    ]);
    // Read from the carried-forward event alone (the stream truncated before it), the next decision is the same.
    const next = take([102, 103, 104, 105, 106], 5);
    const carried = decided.slice(-1);
    expect(given(carried).when(next)()).toEqual(given([...history, ...decided]).when(next)());
    expect(given(carried).when(next)()).toEqual([taken(102, 103, 104)]);
  });
});
