import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { yieldToIo } from '../../shared/yield-to-io';
import { AppConfig } from '../config/app-config';
import { Upcasters } from '../event-sourcing/upcasters';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { Projection, ReadModelProjection } from './projection';
import { ReadModelBehind } from './read-model-behind';
import { ProjectionWaiters } from './projection-waiters';
import { BatchResult, ProjectionBatches } from './projection-batches';

const BATCH = 500;
/** A rebuild holds more events per transaction: nothing waits on it, and each document is written once per batch. */
const REBUILD_BATCH = 5000;
/** How soon a batch another instance holds is looked at again. */
const BUSY_RETRY_MS = 50;
/**
 * After a batch that found events but not a full batch of them, the next waits this long: under
 * a stream of writes each batch then takes several of them, and the commits they cost are few
 * (a read-your-writes answer waits at most this much longer).
 */
const LINGER_MS = 2;
/**
 * The same wait while only background work (reactors, the scheduler) waits on the projections:
 * dialing's chain of small writes then shares a commit among many times as many events (each
 * commit rewrites the index pages its documents touched). A request that comes to wait brings it
 * back to the 2 ms. Alternated in the same minutes, 300 campaigns dialing at once (bench/README.md):
 * 20 ms made 387–422 attempts/s against 321–391 with 10, every campaign still within a tenth of
 * its share; 30 ms made 404–453 but left up to 16 of 300 campaigns outside it (the scheduler's
 * passes wait for the read models, so fewer passes share out the places).
 */
const BACKGROUND_LINGER_MS = 20;

export interface SettleOptions {
  /**
   * Work no answer waits on: every reactor (the reactor runner says so for them), the scheduler,
   * the stuck-call sweep. Dialing's many small writes are what a longer wait lets share commits. An import waits as a
   * request does: its batches of rows fill most projection batches whole anyway.
   */
  background?: boolean;
}

/** False for a rebuild: it projects every event again itself, so a catch-up first is work thrown away. */
export const PROJECT_AT_START = Symbol('PROJECT_AT_START');

/**
 * Applies every event to every projection in order, and answers who waits for them. Each batch
 * (ProjectionBatches) runs under the read store's exclusive lock and writes the checkpoints with
 * the read-model changes, so several processes sharing a store never apply an event twice or out
 * of order; this class decides when batches run.
 */
@Injectable()
export class ProjectionRunner implements OnApplicationBootstrap {
  private readonly logger = new Logger('Projections');
  private projections: ReadModelProjection[] = [];
  /** Each projection's event types. */
  private handledBy = new Map<ReadModelProjection, ReadonlySet<string>>();
  private readonly waiters = new ProjectionWaiters();
  /** Brings the wait between two batches back to LINGER_MS from its start. */
  private shortenLinger?: () => void;
  private running?: Promise<void>;
  private pending = false;
  private unwatch?: () => void;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;
  private started!: () => void;
  /** Settles once the projections have caught up, at start, with what the store held. */
  readonly caughtUpAtStart = new Promise<void>((resolve) => (this.started = resolve));
  private readonly batches: ProjectionBatches;

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: DocumentStore,
    upcasters: Upcasters,
    private readonly config: AppConfig,
    @Inject(PROJECT_AT_START) private readonly projectAtStart: boolean,
  ) {
    this.batches = new ProjectionBatches(events, readStore, upcasters);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.projections = this.discovery
      .getProviders({ metadataKey: Projection.KEY })
      .filter((wrapper) => wrapper.instance)
      .map((wrapper) => wrapper.instance as ReadModelProjection);
    this.handledBy = new Map(this.projections.map((p) => [p, new Set(p.eventTypes)]));
    await this.batches.resetChanged(this.projections);
    if (!this.projectAtStart) return;
    this.unwatch = this.events.watch(() => this.trigger());
    await this.catchUp();
    this.started();
  }

  /**
   * Stops projecting once the HTTP server has closed (called by the store's lifecycle at
   * application shutdown, not at module destroy): requests still answering during the
   * shutdown write, and their answers wait for the projections to show what they wrote.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.unwatch?.();
    clearTimeout(this.retryTimer);
    await this.running;
    // Project what is stored already, so the writes answering during shutdown read themselves.
    try {
      while ((await this.runBatch()).count === BATCH);
    } catch (error) {
      this.logger.error(`Final projection batch failed: ${(error as Error).message}`);
    }
    this.stopped = true;
    this.waiters.end();
  }

  /** The position every projection has applied up to. */
  get position(): number {
    return this.waiters.position;
  }

  names(): string[] {
    return this.projections.map((p) => p.name);
  }

  /** Resolves true once every projection has applied the event at `position`, false on timeout. */
  waitFor(position: number | null, timeoutMs = this.config.readYourWritesTimeoutMs, { background = false }: SettleOptions = {}): Promise<boolean> {
    if (position === null || position <= this.waiters.position) return Promise.resolve(true);
    // Stopped, nothing will project it any more: waiting out the timeout would only hold up the shutdown.
    if (this.stopped) return Promise.resolve(false);
    if (!background) this.shortenLinger?.();
    const waited = this.waiters.wait(position, timeoutMs, background);
    this.trigger();
    return waited;
  }

  /** Waits like `waitFor`, and throws ReadModelBehind when the read models do not get there in time. */
  async settle(position: number | null, options?: SettleOptions): Promise<void> {
    if (!(await this.waitFor(position, undefined, options))) throw new ReadModelBehind(position!);
  }

  /** Whether the projections stopped for good (the process shuts down). */
  get isStopped(): boolean {
    return this.stopped;
  }

  /**
   * Waits however long the projections take to apply the event at `position`: for background
   * work, lag is waiting, not failure (docs/dialing.md: it delays dialing by no more than itself).
   * Throws ReadModelBehind only when the projections stopped (the process is shutting down).
   */
  async projected(position: number | null, options: SettleOptions = { background: true }): Promise<void> {
    while (!(await this.waitFor(position, undefined, options))) if (this.stopped) throw new ReadModelBehind(position!);
  }

  /** Projects until nothing is left; concurrent callers share one run. */
  catchUp(): Promise<void> {
    this.trigger();
    return this.running ?? Promise.resolve();
  }

  /**
   * Projects every event again into new collections for the named projections, under checkpoints
   * of the rebuild's own, and switches to them once caught up (the adapter's refill): whoever reads
   * meanwhile sees the old ones, never empty ones. Beside running services (MongoDB), the last
   * batches, the switch and the move of the projections' checkpoints to where the rebuild got
   * happen under the projections' lock: no service batch applies an event to the old collections
   * that the new ones then miss, nor writes ahead of the rebuild into the new ones.
   */
  async rebuild(names: string[], onProgress?: (position: number) => void): Promise<number> {
    const chosen = this.projections.filter((p) => names.includes(p.name));
    const rebuilding = (p: ReadModelProjection) => `rebuild:${p.name}`;
    await this.running;
    let release: (() => Promise<void>) | undefined;
    try {
      const { applied, position } = await this.readStore.refill(
        chosen.flatMap((p) => p.collections),
        async () => {
          await this.batches.resetCheckpoints(chosen.map(rebuilding));
          this.waiters.startOver();
          let applied = 0;
          let batch: BatchResult;
          do {
            batch = await this.runBatch(REBUILD_BATCH, chosen, rebuilding, true);
            applied += batch.count;
            onProgress?.(batch.position);
          } while (batch.count === REBUILD_BATCH);
          if (!this.readStore.refillsBesideServices) return { applied, position: batch.position };
          release = await this.batches.hold();
          do {
            batch = await this.batches.runHeld(chosen, this.handledBy, REBUILD_BATCH, rebuilding);
            applied += batch.count;
          } while (batch.count === REBUILD_BATCH);
          return { applied, position: batch.position };
        },
      );
      await this.batches.advanceCheckpoints(
        chosen.map((p) => p.name),
        position,
        release !== undefined,
      );
      return applied;
    } finally {
      await release?.();
    }
  }

  /** Looks again shortly: the batch was another instance's to run. */
  private triggerSoon(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.trigger(), BUSY_RETRY_MS);
    this.retryTimer.unref();
  }

  private trigger(): void {
    if (this.stopped) return;
    this.pending = true;
    if (this.running) return;
    this.running = this.loop().finally(() => {
      this.running = undefined;
      if (this.pending && !this.stopped) this.trigger();
    });
  }

  private async loop(): Promise<void> {
    while (this.pending && !this.stopped) {
      this.pending = false;
      try {
        let count: number;
        do {
          ({ count } = await this.runBatch());
          await (count > 0 && count < BATCH ? this.linger() : yieldToIo());
        } while (count === BATCH && !this.stopped);
      } catch (error) {
        this.logger.error(`Projection batch failed, retrying: ${(error as Error).stack ?? error}`);
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.trigger(), 1000);
        this.retryTimer.unref();
        return;
      }
    }
  }

  private linger(): Promise<void> {
    const startedAt = performance.now();
    const ms = this.waiters.requestWaits ? LINGER_MS : BACKGROUND_LINGER_MS;
    return new Promise<void>((resolve) => {
      let timer = setTimeout(resolve, ms);
      this.shortenLinger = () => {
        clearTimeout(timer);
        timer = setTimeout(resolve, Math.max(0, startedAt + LINGER_MS - performance.now()));
      };
    }).finally(() => (this.shortenLinger = undefined));
  }

  private async runBatch(
    size = BATCH,
    projections = this.projections,
    checkpointOf = (p: ReadModelProjection) => p.name,
    /** A rebuild waits its turn: a batch another instance runs is not one of its own. */
    waitForTurn = false,
  ): Promise<BatchResult> {
    const outcome = await this.batches.run(projections, this.handledBy, size, checkpointOf, waitForTurn);
    if (!outcome.ran) {
      // Another instance is projecting: what it projects is read from the checkpoints once it is done.
      this.triggerSoon();
      const position = await this.batches.lowestCheckpoint(this.projections);
      this.waiters.advance(position);
      return { count: 0, position };
    }
    this.waiters.advance(outcome.result.position);
    return outcome.result;
  }
}
