import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_STORE, EventStore, Subscription } from '../../shared/ports/event-store.port';
import { Sealer } from '../../shared/sealing/sealer';
import { BACKGROUND_WORK } from '../../infrastructure/reactors/reactor';

/**
 * docs/privacy.md: every running instance follows the log's erasures from its start, so a key
 * another instance destroyed is dropped from this one's memory as soon as the erasure is
 * recorded, not after the keys' time in memory runs out (which now only bounds a stalled feed).
 */
@Injectable()
export class ErasuresFollower implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly sealer: Sealer,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A key held before this point was read in the log's order or from the key store as it is now.
    if (this.background) await this.follow();
  }

  async follow(): Promise<void> {
    this.subscription ??= this.events.subscribeToAll(await this.events.headPosition(), async (event) => this.sealer.forgetErasedIn(event), {
      types: ['SubjectErased', 'RetainedValuesErased'],
    });
  }

  /** Before the stores close (they do when the application shuts down). */
  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }
}
