import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../shared/clock';
import { ConcurrencyError } from '../event-store/event-store.errors';
import { EVENT_STORE, EventStore, RecordedEvent } from '../event-store/event-store.port';
import { defined } from '../../shared/defined';
import { DomainError } from '../../shared/domain-error';
import { correlationIdOf } from './correlation';
import { Decider, DomainEvent, fold } from './decider';
import { Upcasters } from './upcasters';

export interface RunOptions {
  /** Retries after a concurrency conflict; 0 refuses the command on the first conflict. */
  retries?: number;
  /** Extra metadata stored with every event (who asked, which campaign...). */
  metadata?: Record<string, unknown>;
  /** One of many concurrent requests: the append may share its commit (see WriteOptions). */
  shareCommit?: boolean;
}

export interface RunResult<State, Event> {
  events: Event[];
  state: State;
  /** Global position of the last new event; null when the command decided nothing. */
  position: number | null;
  revision: number | null;
}

/**
 * The one command-handling path: read the stream, fold it, decide, append with the
 * expected revision. A conflict means someone wrote in between: read again and decide
 * again, as often as the command allows.
 */
@Injectable()
export class CommandRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly upcasters: Upcasters,
  ) {}

  async load<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve'>,
  ): Promise<{ state: State; revision: number | null }> {
    const recorded = await this.store.readStream(stream);
    return { state: fold(decider, recorded.map((e) => this.toDomain<Event>(e))), revision: lastRevision(recorded) };
  }

  async run<Command, State, Event extends DomainEvent>(
    stream: string,
    decider: Decider<Command, State, Event>,
    command: Command,
    options: RunOptions = {},
  ): Promise<RunResult<State, Event>> {
    const retries = options.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await this.load(stream, decider);
      const now = this.clock.now();
      const events = decider.decide(command, state, now);
      if (events.length === 0) return { events, state, position: null, revision };
      try {
        const appended = await this.store.append(
          stream,
          events.map((e) => ({
            type: e.type,
            data: e.data,
            schemaVersion: e.schemaVersion ?? this.upcasters.currentVersion(e.type),
            metadata: { ...options.metadata, occurred_at: now.toISOString(), ...defined({ $correlationId: correlationIdOf(e) }) },
          })),
          revision === null ? 'no_stream' : revision,
          { shareCommit: options.shareCommit },
        );
        return {
          events,
          state: events.reduce(decider.evolve, state),
          position: appended.position,
          revision: appended.revision,
        };
      } catch (error) {
        if (error instanceof ConcurrencyError && attempt < retries) continue;
        throw error;
      }
    }
  }

  /**
   * Runs a command that claims something (a lead for a call, a call's stream, a webhook
   * attempt): once, with no retry. Null when another writer got there first, whether the
   * append found the stream moved on or the decider refused with a conflict.
   */
  async tryRun<Command, State, Event extends DomainEvent>(
    stream: string,
    decider: Decider<Command, State, Event>,
    command: Command,
    options: Omit<RunOptions, 'retries'> = {},
  ): Promise<RunResult<State, Event> | null> {
    try {
      return await this.run(stream, decider, command, { ...options, retries: 0 });
    } catch (error) {
      if (error instanceof ConcurrencyError || (error instanceof DomainError && error.kind === 'conflict')) return null;
      throw error;
    }
  }

  toDomain<Event extends DomainEvent>(recorded: RecordedEvent): Event {
    return this.upcasters.upcast(recorded) as unknown as Event;
  }
}

function lastRevision(events: RecordedEvent[]): number | null {
  return events.length ? events[events.length - 1].revision : null;
}
