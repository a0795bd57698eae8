import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Upcasters } from '../event-sourcing/upcasters';
import { EVENT_STORE, EventStore, Subscription } from '../event-store/event-store.port';
import { DocumentStore, READ_STORE } from '../read-store/document-store.port';
import { BACKGROUND_WORK, REACTOR, Reactor } from './reactor';

/** How often the checkpoint of a reactor that only skipped events is written. */
const IDLE_CHECKPOINT_MS = 500;

/**
 * Runs each reactor on its own checkpointed subscription: one event at a time (the next
 * is read only when the reactor is done, which is the backpressure), a failing event
 * offered again after a pause, the checkpoint written after every handled event.
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
      .getProviders()
      .filter((w) => w.metatype && Reflect.getMetadata(REACTOR, w.metatype) && w.instance)
      .map((w) => w.instance as Reactor);
    for (const reactor of reactors) this.subscriptions.push(await this.start(reactor));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
  }

  private async start(reactor: Reactor): Promise<Subscription> {
    const checkpoint = `reactor:${reactor.name}`;
    let saved = await this.readStore.getCheckpoint(checkpoint);
    let savedAt = Date.now();
    const save = async (position: number) => {
      if (position <= saved) return;
      await this.readStore.setCheckpoint(checkpoint, position);
      saved = position;
      savedAt = Date.now();
    };
    return this.events.subscribeToAll(
      saved,
      async (recorded) => {
        if (reactor.handles(recorded)) {
          await reactor.react(this.upcasters.upcast(recorded));
          await save(recorded.position);
        } else if (Date.now() - savedAt > IDLE_CHECKPOINT_MS) {
          await save(recorded.position);
        }
      },
      { onError: (error, event) => this.logger.error(`${reactor.name} failed at position ${event?.position}: ${(error as Error).stack ?? error}`) },
    );
  }
}
