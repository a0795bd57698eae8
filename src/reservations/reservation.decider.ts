import { Decider, DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

/**
 * A reservation stream guards an invariant that spans streams (one live lead per number and
 * campaign, at most N tools per user): whoever takes a place appends to it with the expected
 * revision, so two racing takers cannot both see room. Holders are ids of the streams that
 * use the places; whether a holder still uses its place is read from its own stream, so a
 * place is freed by a delete, a move or a creation that never happened, without a release
 * having to be written by each of those paths.
 */
export type ReservationTaken = DomainEvent<'ReservationTaken', { holder: number; at: string }>;
export type ReservationReleased = DomainEvent<'ReservationReleased', { holder: number }>;
export type ReservationEvent = ReservationTaken | ReservationReleased;

/** docs/privacy.md: what each field holds. */
export const RESERVATION_EVENT_TYPES = declareFields<ReservationEvent>({
  ReservationTaken: { holder: 'plain', at: 'plain' },
  ReservationReleased: { holder: 'plain' },
});
export interface ReservationState {
  /** Whether the stream has any event: a stream never written to is opened with the holders that came before it. */
  opened: boolean;
  holders: Array<{ holder: number; at: string }>;
}

/**
 * What a holder's own stream says: it uses its place (`live`), no longer does (`gone`), or does
 * not exist yet (`absent`: being created, or its creation died with its process).
 */
export type HolderStatus = 'live' | 'gone' | 'absent';

/** How long a place taken for a holder that was never created stays taken. */
export const PENDING_HOLDER_MS = 60_000;

export type ReservationCommand =
  /**
   * Take one of `capacity` places; `statuses` says, for each current holder, what its stream
   * says. `earlier` names the holders of data older than the stream: when the stream was never
   * written to, they are put in first, and judged like the others.
   */
  | { type: 'Reserve'; holder: number; capacity: number; statuses: ReadonlyMap<number, HolderStatus>; earlier: readonly number[] }
  /** Take a place whatever the others (an allowed duplicate, a number changed by an update). */
  | { type: 'Register'; holder: number; earlier: readonly number[] }
  /** Give back the place of a holder whose creation failed after it was taken. */
  | { type: 'Release'; holder: number };

export class NoPlaceLeft extends Error {
  constructor(readonly liveHolders: number) {
    super('No place left');
  }
}

/** The decision needs what these holders' streams say (they are new since the statuses were read). */
export class HoldersChanged extends Error {
  constructor(readonly holders: number[]) {
    super('The holders changed');
  }
}

export const reservationDecider: Decider<ReservationCommand, ReservationState, ReservationEvent> = {
  initialState: { opened: false, holders: [] },

  decide(command, state, now) {
    if (command.type === 'Release') {
      return state.holders.some((h) => h.holder === command.holder) ? [{ type: 'ReservationReleased', data: { holder: command.holder } }] : [];
    }
    const taken = (holder: number): ReservationTaken => ({ type: 'ReservationTaken', data: { holder, at: now.toISOString() } });
    const seeded = state.opened ? [] : command.earlier.filter((h) => h !== command.holder);
    const holders = [...state.holders, ...seeded.map((holder) => ({ holder, at: now.toISOString() }))];
    if (holders.some((h) => h.holder === command.holder)) return seeded.map(taken);
    if (command.type === 'Register') return [...seeded.map(taken), taken(command.holder)];
    const unknown = holders.filter((h) => !command.statuses.has(h.holder)).map((h) => h.holder);
    if (unknown.length) throw new HoldersChanged(unknown);
    const stale: number[] = [];
    let live = 0;
    for (const { holder, at } of holders) {
      const status = command.statuses.get(holder);
      const pending = status === 'absent' && now.getTime() - new Date(at).getTime() < PENDING_HOLDER_MS;
      if (status === 'live' || pending) live++;
      else stale.push(holder);
    }
    if (live >= command.capacity) throw new NoPlaceLeft(live);
    return [...seeded.map(taken), ...stale.map((holder): ReservationReleased => ({ type: 'ReservationReleased', data: { holder } })), taken(command.holder)];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ReservationTaken':
        return { opened: true, holders: [...state.holders, { holder: event.data.holder, at: event.data.at }] };
      case 'ReservationReleased':
        return { opened: true, holders: state.holders.filter((h) => h.holder !== event.data.holder) };
    }
  },
};
