import { Logger } from '@nestjs/common';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../event-sourcing/command-runner';
import { Upcasters } from '../event-sourcing/upcasters';
import { EventStore, RecordedEvent } from '../../shared/ports/event-store.port';
import { ParkedCommand, ParkedState, parkedEventsDecider, parkedEventsStream } from './parked-events.decider';
import { Reactor } from './reactor';

/** How often parked events are looked at for a retry. */
const RETRY_TICK_MS = 500;
/** With nothing parked by this process, the stream is read every this many ticks. */
const IDLE_RELOAD_EVERY = 20;
const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;

/** The partition an event belongs to: its campaign, else its own stream. */
export function partitionOf(event: RecordedEvent): string {
  const campaignId = (event.data as { campaign_id?: unknown } | null)?.campaign_id;
  return typeof campaignId === 'number' ? `campaign-${campaignId}` : event.stream;
}

/**
 * One reactor's failed events (see parked-events.decider). A failing event is parked and the
 * reactor moves on; later events of its partition queue behind it, so the partition keeps
 * its order while every other partition goes on. Parked events are tried again, head first,
 * with a backoff that doubles up to an hour, until they succeed.
 */
export class ParkedEvents {
  private readonly logger = new Logger('Reactors');
  private readonly stream: string;
  private state: ParkedState = parkedEventsDecider.initialState;
  /** The stream's revision the state was folded up to: a reload reads only what came after it. */
  private revision: number | null = null;
  private timer?: NodeJS.Timeout;
  private retrying?: Promise<void>;
  private stopped = false;
  private idleTicks = 0;

  constructor(
    private readonly reactor: Reactor,
    private readonly events: EventStore,
    private readonly runner: CommandRunner,
    private readonly upcasters: Upcasters,
    private readonly clock: Clock,
  ) {
    this.stream = parkedEventsStream(reactor.name);
  }

  async start(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => {
      this.retrying ??= this.retryDue()
        .catch((error: Error) => this.logger.error(`${this.reactor.name}: retrying parked events failed: ${error.message}`))
        .finally(() => (this.retrying = undefined));
    }, RETRY_TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.retrying;
  }

  /** Whether events of this partition wait behind a parked one. */
  holds(partition: string): boolean {
    return partition in this.state.partitions;
  }

  /** Parks an event that failed. */
  async park(event: RecordedEvent, partition: string, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const retryAt = new Date(this.clock.now().getTime() + FIRST_RETRY_MS);
    await this.apply({ type: 'Park', position: event.position, partition, error: message, retryAt });
    this.logger.error(
      `${this.reactor.name} parked the event at position ${event.position} (${partition}, ${event.type}), next try at ${retryAt.toISOString()}: ${message}`,
    );
    await this.reactor.onParked?.(this.upcasters.upcast(event), message, retryAt);
  }

  /** Queues an event behind its partition's parked ones, so the partition keeps its order. */
  async queueBehind(event: RecordedEvent, partition: string): Promise<void> {
    await this.apply({ type: 'Park', position: event.position, partition, error: 'waiting behind an earlier parked event', retryAt: this.clock.now() });
  }

  /**
   * Tries each partition's head that is due, and the ones behind it while they succeed. With
   * nothing parked here the stream is read only now and then, for what other instances parked.
   */
  private async retryDue(): Promise<void> {
    const idle = Object.keys(this.state.partitions).length === 0;
    if (idle && ++this.idleTicks < IDLE_RELOAD_EVERY) return;
    this.idleTicks = 0;
    await this.reload();
    for (const [partition, entries] of Object.entries(this.state.partitions)) {
      for (const entry of entries) {
        if (this.stopped || Date.parse(entry.retryAt) > this.clock.now().getTime()) break;
        if (!(await this.retry(entry.position, partition, entry.attempts))) break;
      }
    }
  }

  private async retry(position: number, partition: string, attempts: number): Promise<boolean> {
    try {
      // Read inside the try: a read that fails is a failed try, backed off like any other.
      const event = await this.events.readAt(position);
      if (event) await this.reactor.react(this.upcasters.upcast(event));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryAt = new Date(this.clock.now().getTime() + Math.min(FIRST_RETRY_MS * 2 ** attempts, LONGEST_RETRY_MS));
      await this.apply({ type: 'RecordRetryFailure', position, error: message, retryAt });
      this.logger.error(`${this.reactor.name} failed again at position ${position} (${partition}), next try at ${retryAt.toISOString()}: ${message}`);
      return false;
    }
    await this.apply({ type: 'Recover', position });
    return true;
  }

  private async apply(command: ParkedCommand): Promise<void> {
    const { state, revision } = await this.runner.run(this.stream, parkedEventsDecider, command, { retries: 100 });
    if (revision !== null && revision >= (this.revision ?? -1)) {
      this.state = state;
      this.revision = revision;
    }
  }

  /** Folds what was appended since the last look (by this instance or another) onto the state kept. */
  private async reload(): Promise<void> {
    const recorded = await this.events.readStream(this.stream, this.revision === null ? 0 : this.revision + 1);
    if (!recorded.length) return;
    this.state = recorded.reduce((state, event) => parkedEventsDecider.evolve(state, this.runner.toDomain(event)), this.state);
    this.revision = recorded[recorded.length - 1].revision;
  }
}
