import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Upcasters } from '../event-sourcing/upcasters';
import { EVENT_STORE, EventStore, RecordedEvent, Subscription } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../projections/projection-runner';
import { ReadModelBehind } from '../projections/read-model-behind';
import { DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { BACKGROUND_WORK, ReactsToEvents, Reactor } from './reactor';
import { TrailingCheckpoint } from './trailing-checkpoint';
import { ParkedEvents, partitionOf } from './parked-events';
import { CommandRunner } from '../event-sourcing/command-runner';
import { Clock } from '../../shared/clock';
import { LeaseHandle, WorkLeases } from '../leases/work-leases';

interface RunningReactor {
  name: string;
  types: readonly string[];
  subscription: Subscription;
  checkpoint: TrailingCheckpoint;
  parked: ParkedEvents;
}

/**
 * Runs each reactor on its own checkpointed subscription: one event at a time (the next
 * is read only when the reactor is done, which is the backpressure). A failing event is
 * parked with the later events of its campaign and tried again with backoff, while the
 * reactor goes on with every other campaign (docs/api.md, see ParkedEvents). The checkpoint
 * trails by up to CHECKPOINT_EVERY_MS (and is saved at stop) rather than costing a
 * transaction per event: after a crash a reactor sees the last moments' events again, which
 * it must bear anyway (reactors are idempotent). Each reactor runs in one instance at a time,
 * the one holding its lease (see WorkLeases).
 */
@Injectable()
export class ReactorRunner implements OnModuleDestroy {
  private readonly logger = new Logger('Reactors');
  private readonly running = new Map<string, RunningReactor>();
  private leases: LeaseHandle[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: DocumentStore,
    private readonly upcasters: Upcasters,
    private readonly projections: ProjectionRunner,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    private readonly workLeases: WorkLeases,
  ) {}

  /**
   * Called by the root module's bootstrap, which comes after every feature module's: a
   * reactor's first event must find the command handlers that CQRS registers at bootstrap.
   */
  async start(): Promise<void> {
    if (!this.background) return;
    // Reactors read the read models as of each event: started on a store the projections have
    // not caught up with, each would wait for them and give up after the read-your-writes timeout.
    await this.projections.caughtUpAtStart;
    const reactors = this.discovery
      .getProviders({ metadataKey: ReactsToEvents.KEY })
      .filter((w) => w.instance)
      .map((w) => w.instance as Reactor);
    for (const reactor of reactors) {
      const lease = await this.workLeases.add({
        name: `reactor:${reactor.name}`,
        start: async () => void this.running.set(reactor.name, await this.startOne(reactor)),
        stop: () => this.stopOne(reactor.name),
      });
      this.leases.push(lease);
    }
  }

  /** The reactors running here, by checkpoint name, with the position each has handled up to. */
  positions(): Array<{ name: string; position: number; types: readonly string[] }> {
    return [...this.running.values()].map(({ subscription, name, types }) => ({ name, position: subscription.position, types }));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.leases.splice(0).map((lease) => lease.release()));
  }

  private async stopOne(name: string): Promise<void> {
    const reactor = this.running.get(name);
    if (!reactor) return;
    this.running.delete(name);
    await reactor.subscription.stop();
    await reactor.parked.stop();
    await reactor.checkpoint.save();
  }

  private async startOne(asItIs: Reactor): Promise<RunningReactor> {
    const reactor = this.asOfItsEvent(asItIs);
    const name = `reactor:${reactor.name}`;
    const parked = new ParkedEvents(reactor, this.events, this.runner, this.upcasters, this.clock);
    await parked.start();
    const checkpoint = new TrailingCheckpoint(
      await this.readStore.getCheckpoint(name),
      (position) => this.readStore.setCheckpoint(name, position),
      (error) => this.logger.error(`${reactor.name} could not save its checkpoint: ${(error as Error).message}`),
    );
    const subscription = this.events.subscribeToAll(
      checkpoint.position,
      (recorded) => {
        // An event the reactor passes over is let go at once: no promise made for it.
        if (!(reactor.handles?.(recorded) ?? true)) return checkpoint.reached(recorded.position);
        return this.handle(reactor, parked, recorded).then(() => checkpoint.reached(recorded.position));
      },
      {
        types: reactor.eventTypes,
        onError: (error, event) => this.logger.error(`${reactor.name} failed at position ${event?.position}: ${(error as Error).stack ?? error}`),
      },
    );
    return { name: reactor.name, types: reactor.eventTypes, subscription, checkpoint, parked };
  }

  /**
   * A reactor reads the read models as they were when its event happened: each event, handled
   * or parked and tried again, first waits for the projections to reach it, however long they
   * lag (a lag is no failure: nothing is parked for it). No answer waits on a reactor, so the
   * projections may let its wait gather more events into a commit.
   */
  private asOfItsEvent(reactor: Reactor): Reactor {
    return {
      name: reactor.name,
      eventTypes: reactor.eventTypes,
      handles: reactor.handles?.bind(reactor),
      onParked: reactor.onParked?.bind(reactor),
      react: (event) =>
        // Reached already, the event is reacted to at once.
        event.position <= this.projections.position ? reactor.react(event) : this.projections.projected(event.position).then(() => reactor.react(event)),
    };
  }

  /** Reacts to one event; a failure parks it (the parking's own failure stops here, to be offered again). */
  private async handle(reactor: Reactor, parked: ParkedEvents, recorded: RecordedEvent): Promise<void> {
    const partition = partitionOf(recorded);
    if (parked.holds(partition)) return parked.queueBehind(recorded, partition);
    try {
      await reactor.react(this.upcasters.upcast(recorded));
    } catch (error) {
      // Stopping while it waited for the projections: offered again after the restart, not parked.
      if (error instanceof ReadModelBehind && this.projections.isStopped) throw error;
      await parked.park(recorded, partition, error);
    }
  }
}
