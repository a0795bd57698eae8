import { Inject, Injectable, Optional } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import { Clock } from '../../shared/clock';
import { ConcurrencyError } from '../../shared/ports/event-store.errors';
import { EVENT_STORE, EventStore, RecordedEvent } from '../../shared/ports/event-store.port';
import { defined } from '../../shared/defined';
import { DomainError } from '../../shared/domain-error';
import { SYSTEM_ACTOR, currentContext } from '../../shared/event-sourcing/actor';
import { correlationIdOf } from '../../shared/event-sourcing/correlation';
import { Decider, DomainEvent, fold } from '../../shared/event-sourcing/decider';
import { RecentStates } from './recent-states';
import { lastRevision, streamOrganisation, streamSubject } from './stream-facts';
import { organisationNamedBy } from '../../shared/event-sourcing/unstamped-organisation';
import { StreamTurns } from './stream-turns';
import { Upcasters } from './upcasters';
import { Sealer } from '../../shared/sealing/sealer';
import { withSecretsSealed } from '../../shared/sealing/sealed-fields';
import { personalSealed } from './personal-sealed';

export interface RunOptions {
  /** Retries after a concurrency conflict; 0 refuses the command on the first conflict. */
  retries?: number;
  /** Extra metadata stored with every event (who asked, which campaign...). */
  metadata?: Record<string, unknown>;
  /**
   * The stream should not exist yet (its id was just allocated, or only the first to open it
   * may): the command decides from the initial state without reading, and the append expects
   * no stream, so a stream that does exist is a conflict.
   */
  newStream?: boolean;
  /**
   * The subject key of the person a stream is about, when its events name none (a do-not-call
   * listing's stream is one number's): their personal values are sealed under it (docs/privacy.md).
   */
  subject?: string;
}

export interface RunResult<State, Event> {
  events: Event[];
  state: State;
  /** Global position of the last new event; null when the command decided nothing. */
  position: number | null;
  revision: number | null;
  /** When the command was decided: the `occurred_at` its events are stored with. */
  occurredAt: string;
}

/**
 * The one command-handling path: read the stream, fold it, decide, append with the
 * expected revision. A conflict means someone wrote in between: read again and decide
 * again, as often as the command allows. A stream this process wrote recently is not read
 * again: its state is remembered (see RecentStates). Commands on one stream in this process
 * run one after the other (see StreamTurns).
 */
@Injectable()
export class CommandRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly upcasters: Upcasters,
    @Optional() private readonly metrics?: Metrics,
    /** docs/privacy.md: seals the fields each event type declares secret before they are written. */
    @Optional() private readonly sealer?: Sealer,
  ) {}

  private readonly recent = new RecentStates();
  private readonly turns = new StreamTurns();

  async load<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve'>,
  ): Promise<{ state: State; revision: number | null; organisationId?: number; subject?: string }> {
    const recorded = await this.store.readStream(stream);
    return {
      state: fold(
        decider,
        recorded.map((e) => this.toDomain<Event>(e)),
      ),
      revision: lastRevision(recorded),
      organisationId: streamOrganisation(recorded),
      subject: streamSubject(recorded),
    };
  }

  /**
   * The stream's state as it stands, for a check that writes nothing: the state this process
   * remembers, caught up with whatever was appended since (read now), else the whole stream read.
   */
  async current<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve'>,
  ): Promise<{ state: State; revision: number | null }> {
    const now = (await this.caughtUp(stream, decider)) ?? (await this.load(stream, decider));
    this.recent.remember(stream, decider, now.state, now.revision, now.organisationId, now.subject);
    return { state: now.state, revision: now.revision };
  }

  /** The remembered state with what was appended since; undefined when none is remembered. */
  private async caughtUp<State, Event extends DomainEvent>(stream: string, decider: Pick<Decider<unknown, State, Event>, 'evolve'>) {
    const known = this.recent.get<State>(stream, decider);
    return known && (await this.catchUp(stream, decider, known));
  }

  /** `known` (a fold of the stream up to its revision) with the events appended after it. */
  private async catchUp<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<Decider<unknown, State, Event>, 'evolve'>,
    known: { state: State; revision: number; organisationId?: number; subject?: string },
  ): Promise<{ state: State; revision: number; organisationId?: number; subject?: string }> {
    const after = await this.store.readStream(stream, known.revision + 1);
    const state = after.map((e) => this.toDomain<Event>(e)).reduce(decider.evolve, known.state);
    return {
      state,
      revision: lastRevision(after) ?? known.revision,
      organisationId: known.organisationId ?? streamOrganisation(after),
      subject: known.subject ?? streamSubject(after),
    };
  }

  /**
   * The events as they are remembered: secrets sealed, so a state folded from the store and one
   * remembered agree (the store's readers see personal values opened, secrets sealed).
   */
  private secretsSealed<Event extends DomainEvent>(events: Event[]): Event[] {
    const sealer = this.sealer;
    if (!sealer) return events;
    return events.map((event) => {
      const data = withSecretsSealed(event.type, event.data, (plain) => sealer.seal(plain));
      return data === event.data ? event : ({ ...event, data } as Event);
    });
  }

  /**
   * The state a command may decide from without reading its stream whole: for a claim, the one
   * remembered caught up with what was appended since (none for a stream expected new); for any
   * other command, the one remembered, or after a conflict the one it decided from, caught up.
   */
  private fromMemory<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<Decider<unknown, State, Event>, 'evolve'>,
    claim: boolean,
    newStream: boolean,
    stale: { state: State; revision: number; organisationId?: number; subject?: string } | undefined,
  ) {
    if (claim) return newStream ? undefined : this.caughtUp(stream, decider);
    // Remembered, the state is answered as it is: no promise to wait on.
    return this.recent.get<State>(stream, decider) ?? (stale && this.catchUp(stream, decider, stale));
  }

  run<Command, State, Event extends DomainEvent>(
    stream: string,
    decider: Decider<Command, State, Event>,
    command: Command,
    options: RunOptions = {},
  ): Promise<RunResult<State, Event>> {
    return this.turns.take(stream, () => this.runNow(stream, decider, command, options));
  }

  private async runNow<Command, State, Event extends DomainEvent>(
    stream: string,
    decider: Decider<Command, State, Event>,
    command: Command,
    options: RunOptions,
  ): Promise<RunResult<State, Event>> {
    const retries = options.retries ?? 3;
    // A command allowed no retry claims something: a conflict must mean someone else wrote
    // after its own read, so it reads the store: what was appended since the state it
    // remembers, else the whole stream. A state from memory that refuses or decides nothing is
    // read again from the store whole; one that meets a conflict was stale, a conflict like any
    // other.
    const claim = retries === 0;
    let readWhole = false;
    // After a conflict: the state decided from, caught up by reading only what others appended
    // since its revision (a busy stream, such as a campaign's call slots, is not read from its
    // start at every conflict). Trusted as far as a remembered state is: a refusal reads it all.
    let stale: { state: State; revision: number; organisationId?: number; subject?: string } | undefined;
    for (let conflicts = 0; ;) {
      const recalled = readWhole ? undefined : this.fromMemory(stream, decider, claim, options.newStream === true, stale);
      const remembered = recalled instanceof Promise ? await recalled : recalled;
      stale = undefined;
      const unwritten =
        options.newStream && conflicts === 0 ? { state: decider.initialState, revision: null, organisationId: undefined, subject: undefined } : undefined;
      const {
        state,
        revision,
        organisationId: streamOrganisationId,
        subject: streamSubjectKey,
      } = remembered ?? unwritten ?? (await this.load(stream, decider));
      this.recent.remember(stream, decider, state, revision, streamOrganisationId, streamSubjectKey);
      const now = this.clock.now();
      let events: Event[];
      try {
        events = this.secretsSealed(decider.decide(command, state, now));
      } catch (error) {
        if (!remembered) throw error;
        readWhole = true;
        continue;
      }
      if (events.length === 0) {
        if (!remembered) return { events, state, position: null, revision, occurredAt: now.toISOString() };
        readWhole = true;
        continue;
      }
      try {
        const occurredAt = now.toISOString();
        const context = currentContext();
        // Background work writes no actor: an event without one reads as `system`.
        const by = context.actor === SYSTEM_ACTOR ? undefined : context.actor;
        // The request's organisation; for background work, the stream's own or the one its events name.
        const organisation = context.organisationId ?? streamOrganisationId ?? organisationNamedBy(stream, revision, events);
        const sealing = personalSealed(this.sealer, events, organisation, streamSubjectKey ?? options.subject, now);
        const { written, subject } = sealing instanceof Promise ? await sealing : sealing;
        const appended = await this.store.append(
          stream,
          written.map(({ event: e, subject: about }) => ({
            type: e.type,
            data: e.data,
            schemaVersion: e.schemaVersion ?? this.upcasters.currentVersion(e.type),
            metadata: {
              ...options.metadata,
              occurred_at: occurredAt,
              ...defined({ organisation_id: organisation, actor: by, subject: about, $correlationId: correlationIdOf(e) }),
            },
          })),
          revision === null ? 'no_stream' : revision,
        );
        this.metrics?.appended(events.map((e) => e.type));
        const after = events.reduce(decider.evolve, state);
        this.recent.remember(stream, decider, after, appended.revision, organisation, subject);
        return { events, state: after, position: appended.position, revision: appended.revision, occurredAt };
      } catch (error) {
        this.recent.forget(stream);
        if (!(error instanceof ConcurrencyError) || conflicts++ >= retries) throw error;
        if (revision !== null) stale = { state, revision, organisationId: streamOrganisationId, subject: streamSubjectKey };
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
