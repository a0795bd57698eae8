import { Decider, DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

/**
 * A campaign's calls in flight as its own stream holds them (docs/dialing.md): each claim batch
 * takes places here, by an append with the expected revision, before its leads are claimed,
 * so two schedulers at once (a lease holder paused past its lease and its successor) never
 * take more than `max_concurrent_calls` between them. A place is freed by the next take after its
 * call ended (CallSlots judges the holders).
 */
export const callSlotsStream = (campaignId: number) => `call_slots-${campaignId}`;

export interface CallSlot {
  call_id: number;
  lead_id: number;
}
// The campaign is named by the stream only: places are bookkeeping, kept out of its audit trail (the claims and calls are there).
export type CallSlotsTaken = DomainEvent<'CallSlotsTaken', { slots: CallSlot[]; at: string }>;
export type CallSlotsFreed = DomainEvent<'CallSlotsFreed', { call_ids: number[] }>;
/** The places held, carried forward: the stream is read from the latest of these (it is truncated before it). */
export type CallSlotsCarriedForward = DomainEvent<'CallSlotsCarriedForward', { held: Array<CallSlot & { at: string }> }>;
export type CallSlotsEvent = CallSlotsTaken | CallSlotsFreed | CallSlotsCarriedForward;

/** docs/privacy.md: what each field holds. */
export const CALL_SLOTS_EVENT_TYPES = declareFields<CallSlotsEvent>({
  CallSlotsTaken: { slots: 'plain', at: 'plain' },
  CallSlotsFreed: { call_ids: 'plain' },
  CallSlotsCarriedForward: { held: 'plain' },
});

export interface CallSlotsState {
  /** Whether the stream has any event: one never written is opened with the calls already in flight. */
  opened: boolean;
  held: Array<CallSlot & { at: string }>;
  /** Events since the places were last carried forward. */
  since?: number;
}

/** Every this many events the places held are carried forward, so a stream's read stays short however many calls it saw. */
export const CARRY_FORWARD_EVERY = 100;

/** What a holder's lead says of it: its call is in flight (`live`), or not (`gone`: ended, or its claim lost). */
export type SlotStatus = 'live' | 'gone';

/** A place taken this long ago whose lead does not show its call yet is taken for a claim lost with its process. */
export const PENDING_CLAIM_MS = 60_000;

export type CallSlotsCommand =
  /**
   * Take a place for each of `wanted`, in order, while the campaign has fewer than `capacity`
   * calls in flight. `statuses`: what the leads say of holders judged (a holder not judged is
   * live); `earlier`: the calls in flight before the stream existed, null when not read yet.
   */
  | {
      type: 'TakeCallSlots';
      campaignId: number;
      wanted: readonly CallSlot[];
      capacity: number;
      statuses: ReadonlyMap<number, SlotStatus>;
      earlier: readonly CallSlot[] | null;
    }
  | { type: 'FreeCallSlots'; campaignId: number; callIds: readonly number[] };

/** The stream was never written: the calls in flight before it must be read to open it. */
export class EarlierSlotsNeeded extends Error {
  constructor() {
    super('The calls in flight before the slots were kept are needed');
  }
}

/** The events decided, and the places carried forward after them when the stream has grown long. */
function carriedForward(state: CallSlotsState, events: CallSlotsEvent[]): CallSlotsEvent[] {
  if (!events.length || (state.since ?? 0) + events.length < CARRY_FORWARD_EVERY) return events;
  const { held } = events.reduce(callSlotsDecider.evolve, state);
  return [...events, { type: 'CallSlotsCarriedForward', data: { held } }];
}

export const callSlotsDecider: Decider<CallSlotsCommand, CallSlotsState, CallSlotsEvent> = {
  initialState: { opened: false, held: [] },

  decide(command, state, now) {
    return carriedForward(state, decided(command, state, now));
  },

  evolve(state, event) {
    const since = (state.since ?? 0) + 1;
    switch (event.type) {
      case 'CallSlotsTaken':
        return { opened: true, held: [...state.held, ...event.data.slots.map((s) => ({ ...s, at: event.data.at }))], since };
      case 'CallSlotsFreed':
        return { opened: true, held: state.held.filter((h) => !event.data.call_ids.includes(h.call_id)), since };
      case 'CallSlotsCarriedForward':
        return { opened: true, held: event.data.held, since: 0 };
    }
  },
};

/** What a command decides, before any carrying forward. */
function decided(command: CallSlotsCommand, state: CallSlotsState, now: Date): CallSlotsEvent[] {
  const at = now.toISOString();
  if (command.type === 'FreeCallSlots') {
    const call_ids = command.callIds.filter((id) => state.held.some((h) => h.call_id === id));
    return call_ids.length ? [{ type: 'CallSlotsFreed', data: { call_ids } }] : [];
  }
  if (!state.opened && command.earlier === null) throw new EarlierSlotsNeeded();
  const seeded = state.opened ? [] : command.earlier!;
  const events: CallSlotsEvent[] = seeded.length ? [{ type: 'CallSlotsTaken', data: { slots: [...seeded], at } }] : [];
  const held = [...state.held, ...seeded];
  const gone = held.filter((h) => command.statuses.get(h.call_id) === 'gone').map((h) => h.call_id);
  if (gone.length) events.push({ type: 'CallSlotsFreed', data: { call_ids: gone } });
  const free = command.capacity - (held.length - gone.length);
  const taken = command.wanted.filter((w) => !held.some((h) => h.call_id === w.call_id)).slice(0, Math.max(0, free));
  if (taken.length) events.push({ type: 'CallSlotsTaken', data: { slots: taken, at } });
  return events;
}
