import { Decider, DomainEvent } from '../../shared/event-sourcing/decider';
import { declareFields } from '../../shared/event-sourcing/event-fields';

/**
 * A reactor's events that failed, kept per partition (a campaign, else the event's stream) in
 * order, in a stream of the reactor's own: the reactor goes on with other partitions, while
 * the parked ones are tried again with backoff, head first, so a partition keeps its order.
 */
export const parkedEventsStream = (reactor: string) => `reactor_parked-${reactor}`;

export type ReactorEventParked = DomainEvent<'ReactorEventParked', { position: number; partition: string; error: string; retry_at: string }>;
export type ReactorEventRetryFailed = DomainEvent<'ReactorEventRetryFailed', { position: number; error: string; attempts: number; retry_at: string }>;
export type ReactorEventRecovered = DomainEvent<'ReactorEventRecovered', { position: number }>;
export type ParkedEvent = ReactorEventParked | ReactorEventRetryFailed | ReactorEventRecovered;

/** docs/privacy.md: what each field holds. */
export const PARKED_EVENT_TYPES = declareFields<ParkedEvent>({
  ReactorEventParked: { position: 'plain', partition: 'plain', error: 'plain', retry_at: 'plain' },
  ReactorEventRetryFailed: { position: 'plain', error: 'plain', attempts: 'plain', retry_at: 'plain' },
  ReactorEventRecovered: { position: 'plain' },
});

export interface ParkedEntry {
  position: number;
  attempts: number;
  retryAt: string;
}

export interface ParkedState {
  /** Each partition's parked events, oldest first; a partition with none is absent. */
  partitions: Readonly<Record<string, readonly ParkedEntry[]>>;
}

export type ParkedCommand =
  | { type: 'Park'; position: number; partition: string; error: string; retryAt: Date }
  | { type: 'RecordRetryFailure'; position: number; error: string; retryAt: Date }
  | { type: 'Recover'; position: number };

const find = (state: ParkedState, position: number) => {
  for (const [partition, entries] of Object.entries(state.partitions)) {
    const entry = entries.find((e) => e.position === position);
    if (entry) return { partition, entry };
  }
  return null;
};

export const parkedEventsDecider: Decider<ParkedCommand, ParkedState, ParkedEvent> = {
  initialState: { partitions: {} },

  decide(command, state) {
    const found = find(state, command.position);
    switch (command.type) {
      case 'Park':
        if (found) return [];
        return [
          {
            type: 'ReactorEventParked',
            data: { position: command.position, partition: command.partition, error: command.error, retry_at: command.retryAt.toISOString() },
          },
        ];
      case 'RecordRetryFailure':
        if (!found) return [];
        return [
          {
            type: 'ReactorEventRetryFailed',
            data: { position: command.position, error: command.error, attempts: found.entry.attempts + 1, retry_at: command.retryAt.toISOString() },
          },
        ];
      case 'Recover':
        return found ? [{ type: 'ReactorEventRecovered', data: { position: command.position } }] : [];
    }
  },

  evolve(state, event) {
    const partitions = { ...state.partitions };
    switch (event.type) {
      case 'ReactorEventParked': {
        const { partition, position, retry_at } = event.data;
        partitions[partition] = [...(partitions[partition] ?? []), { position, attempts: 1, retryAt: retry_at }];
        return { partitions };
      }
      case 'ReactorEventRetryFailed': {
        const at = find(state, event.data.position);
        if (!at) return state;
        partitions[at.partition] = partitions[at.partition].map((e) =>
          e.position === event.data.position ? { ...e, attempts: event.data.attempts, retryAt: event.data.retry_at } : e,
        );
        return { partitions };
      }
      case 'ReactorEventRecovered': {
        const at = find(state, event.data.position);
        if (!at) return state;
        const rest = partitions[at.partition].filter((e) => e.position !== event.data.position);
        if (rest.length) partitions[at.partition] = rest;
        else delete partitions[at.partition];
        return { partitions };
      }
    }
  },
};
