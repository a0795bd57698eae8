import { Decider, DomainEvent, eventTypes } from '../event-sourcing/decider';

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
export const RESERVATION_EVENT_TYPES = eventTypes<ReservationEvent>({ ReservationTaken: true, ReservationReleased: true });

export interface ReservationState {
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
  /** Take one of `capacity` places; `statuses` says, for each current holder, what its stream says. */
  | { type: 'Reserve'; holder: number; capacity: number; statuses: ReadonlyMap<number, HolderStatus> }
  /** Take a place whatever the others (an allowed duplicate, a number changed by an update). */
  | { type: 'Register'; holder: number }
  /** Opens the stream with the holders that took their places before it existed (data older than it). */
  | { type: 'Seed'; holders: number[] };

export class NoPlaceLeft extends Error {
  constructor(readonly liveHolders: number) {
    super('No place left');
  }
}

/** The state changed between reading the holders' streams and deciding: read them again. */
export class HoldersChanged extends Error {}

export const reservationDecider: Decider<ReservationCommand, ReservationState, ReservationEvent> = {
  initialState: { holders: [] },

  decide(command, state, now) {
    const taken = (holder: number): ReservationTaken => ({ type: 'ReservationTaken', data: { holder, at: now.toISOString() } });
    switch (command.type) {
      case 'Seed':
        return state.holders.length ? [] : command.holders.map(taken);
      case 'Register':
        return state.holders.some((h) => h.holder === command.holder) ? [] : [taken(command.holder)];
      case 'Reserve': {
        if (state.holders.some((h) => h.holder === command.holder)) return [];
        const stale: number[] = [];
        let live = 0;
        for (const { holder, at } of state.holders) {
          const status = command.statuses.get(holder);
          if (status === undefined) throw new HoldersChanged();
          const pending = status === 'absent' && now.getTime() - new Date(at).getTime() < PENDING_HOLDER_MS;
          if (status === 'live' || pending) live++;
          else stale.push(holder);
        }
        if (live >= command.capacity) throw new NoPlaceLeft(live);
        return [...stale.map((holder): ReservationReleased => ({ type: 'ReservationReleased', data: { holder } })), taken(command.holder)];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ReservationTaken':
        return { holders: [...state.holders, { holder: event.data.holder, at: event.data.at }] };
      case 'ReservationReleased':
        return { holders: state.holders.filter((h) => h.holder !== event.data.holder) };
    }
  },
};
