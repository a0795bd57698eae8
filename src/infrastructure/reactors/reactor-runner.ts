import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Upcasters } from '../event-sourcing/upcasters';
import { EVENT_STORE, EventStore, Subscription } from '../event-store/event-store.port';
import { ProjectionRunner } from '../projections/projection-runner';
import { DocumentStore, READ_STORE } from '../read-store/document-store.port';
import { BACKGROUND_WORK, ReactsToEvents, Reactor } from './reactor';
import { TrailingCheckpoint } from './trailing-checkpoint';

/**
 * Runs each reactor on its own checkpointed subscription: one event at a time (the next
 * is read only when the reactor is done, which is the backpressure), a failing event
 * offered again after a pause. The checkpoint trails by up to CHECKPOINT_EVERY_MS (and is
 * saved at stop) rather than costing a transaction per event: after a crash a reactor
 * sees the last moments' events again, which it must bear anyway (reactors are idempotent).
 */
@Injectable()
export class ReactorRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Reactors');
  private subscriptions: Array<{ subscription: Subscription; checkpoint: TrailingCheckpoint }> = [];

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: DocumentStore,
    private readonly upcasters: Upcasters,
    private readonly projections: ProjectionRunner,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.background) return;
    // Reactors read the read models as of each event: started on a store the projections have
    // not caught up with, each would wait for them and give up after the read-your-writes timeout.
    await this.projections.caughtUpAtStart;
    const reactors = this.discovery
      .getProviders({ metadataKey: ReactsToEvents.KEY })
      .filter((w) => w.instance)
      .map((w) => w.instance as Reactor);
    for (const reactor of reactors) this.subscriptions.push(await this.start(reactor));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(
      this.subscriptions.splice(0).map(async ({ subscription, checkpoint }) => {
        await subscription.stop();
        await checkpoint.save();
      }),
    );
  }

  private async start(reactor: Reactor): Promise<{ subscription: Subscription; checkpoint: TrailingCheckpoint }> {
    const name = `reactor:${reactor.name}`;
    const checkpoint = new TrailingCheckpoint(await this.readStore.getCheckpoint(name), (position) => this.readStore.setCheckpoint(name, position), (error) =>
      this.logger.error(`${reactor.name} could not save its checkpoint: ${(error as Error).message}`),
    );
    const subscription = this.events.subscribeToAll(
      checkpoint.position,
      async (recorded) => {
        if (reactor.handles?.(recorded) ?? true) await reactor.react(this.upcasters.upcast(recorded));
        checkpoint.reached(recorded.position);
      },
      {
        types: reactor.eventTypes,
        onError: (error, event) => this.logger.error(`${reactor.name} failed at position ${event?.position}: ${(error as Error).stack ?? error}`),
      },
    );
    return { subscription, checkpoint };
  }
}
