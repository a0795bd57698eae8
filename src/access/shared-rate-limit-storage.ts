import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { ServiceInstances } from '../infrastructure/instances/service-instances';
import { DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { SlidingWindowStorage } from './sliding-window-storage';

/** How often the storage looks whether other instances share the store. */
const LOOK_EVERY_MS = 5000;

/**
 * The rate limit across instances (docs/configuration.md): while other instances beat on the store, each
 * request is counted there, in fixed windows of the limit's length; alone, it is counted in
 * memory (a sliding window, no write per request). When a second instance starts, the windows
 * under way are counted afresh in the store: for up to one window a token may get its limit
 * once more.
 */
@Injectable()
export class SharedRateLimitStorage implements ThrottlerStorage, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly local: SlidingWindowStorage;
  private shared = false;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(READ_STORE) private readonly store: DocumentStore,
    private readonly instances: ServiceInstances,
    private readonly now: () => number = Date.now,
  ) {
    this.local = new SlidingWindowStorage(now);
  }

  async onApplicationBootstrap(): Promise<void> {
    // Nest calls this once for each module the storage is reached through (the throttler's too):
    // a second timer would outlive shutdown, and keep the whole application reachable.
    if (this.timer) return;
    this.timer = setInterval(() => void this.look(), LOOK_EVERY_MS).unref();
    await this.look();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.local.onApplicationShutdown();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    if (!this.shared) return this.local.increment(key, ttl, limit, blockDuration);
    const now = this.now();
    const window = Math.floor(now / ttl);
    const windowEnd = (window + 1) * ttl;
    const hits = await this.store.countHit(`rate:${throttlerName}:${key}:${window}`, windowEnd, now);
    const left = Math.max(1, Math.ceil((windowEnd - now) / 1000));
    return { totalHits: hits, timeToExpire: left, isBlocked: hits > limit, timeToBlockExpire: hits > limit ? left : 0 };
  }

  private async look(): Promise<void> {
    this.shared = await this.instances.running().then(
      (others) => others.length > 0,
      () => this.shared,
    );
  }
}
