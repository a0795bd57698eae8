import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Upcasters } from '../event-sourcing/upcasters';
import { EVENT_STORE, EventStore, Subscription } from '../event-store/event-store.port';
import { DocumentStore, READ_STORE } from '../read-store/document-store.port';
import { BACKGROUND_WORK, ReactsToEvents, Reactor } from './reactor';

/**
 * Runs each reactor on its own checkpointed subscription: one event at a time (the next
 * is read only when the reactor is done, which is the backpressure), a failing event
 * offered again after a pause, the checkpoint written after every event it was handed.
 */
@Injectable()
export class ReactorRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Reactors');
  private subscriptions: Subscription[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: DocumentStore,
    private readonly upcasters: Upcasters,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.background) return;
    const reactors = this.discovery
      .getProviders({ metadataKey: ReactsToEvents.KEY })
      .filter((w) => w.instance)
      .map((w) => w.instance as Reactor);
    for (const reactor of reactors) this.subscriptions.push(await this.start(reactor));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
  }

  private async start(reactor: Reactor): Promise<Subscription> {
    const checkpoint = `reactor:${reactor.name}`;
    return this.events.subscribeToAll(
      await this.readStore.getCheckpoint(checkpoint),
      async (recorded) => {
        if (reactor.handles?.(recorded) ?? true) await reactor.react(this.upcasters.upcast(recorded));
        await this.readStore.setCheckpoint(checkpoint, recorded.position);
      },
      {
        types: reactor.eventTypes,
        onError: (error, event) => this.logger.error(`${reactor.name} failed at position ${event?.position}: ${(error as Error).stack ?? error}`),
      },
    );
  }
}
