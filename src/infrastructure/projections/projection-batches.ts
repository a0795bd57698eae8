import { Logger } from '@nestjs/common';
import { Upcasters } from '../event-sourcing/upcasters';
import { EventStore } from '../../shared/ports/event-store.port';
import { DocumentStore } from '../../shared/ports/document-store.port';
import { ReadModelProjection } from './projection';

const LOCK = 'projections';
/** How soon a batch or a version reset another instance holds is looked at again. */
const BUSY_RETRY_MS = 50;

export interface BatchResult {
  count: number;
  /** What every projection of the batch has applied up to. */
  position: number;
}

/**
 * The projections' work on the stores, under the read store's projections lock: one batch of
 * events applied with its checkpoints, a version reset. The ProjectionRunner decides when.
 */
export class ProjectionBatches {
  private readonly logger = new Logger('Projections');

  constructor(
    private readonly events: EventStore,
    private readonly readStore: DocumentStore,
    private readonly upcasters: Upcasters,
  ) {}

  /** Runs `work` under the projections' lock, waiting while another instance holds it. */
  async alone<R>(work: () => Promise<R>): Promise<R> {
    for (;;) {
      const outcome = await this.readStore.exclusive(LOCK, work);
      if (outcome.ran) return outcome.result;
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
    }
  }

  /**
   * A projection whose documents changed shape starts again from the first event. Every instance
   * starting at once: one resets, the others wait for it, then find the version recorded.
   */
  resetChanged(projections: readonly ReadModelProjection[]): Promise<void> {
    return this.alone(async () => {
      for (const projection of projections) {
        const key = `version:${projection.name}`;
        const version = projection.version ?? 1;
        // Stores written before versions were kept hold version 1 of every projection.
        const stored = (await this.readStore.getCheckpoint(key)) || 1;
        if (stored === version) continue;
        if ((await this.readStore.getCheckpoint(projection.name)) > 0) {
          this.logger.log(`Projection ${projection.name} changed to version ${version}: projecting it again`);
          for (const collection of projection.collections) await this.readStore.clearCollection(collection);
          await this.readStore.resetCheckpoint(projection.name, 0);
        }
        await this.readStore.resetCheckpoint(key, version);
      }
    });
  }

  /**
   * One batch of up to `size` events past the lowest checkpoint, each handed to the projections
   * that name its type, their checkpoints written with their changes. `waitForTurn`: wait while
   * another instance holds the lock (a rebuild); else `{ ran: false }` at once.
   */
  async run(
    projections: readonly ReadModelProjection[],
    handledBy: ReadonlyMap<ReadModelProjection, ReadonlySet<string>>,
    size: number,
    checkpointOf: (p: ReadModelProjection) => string,
    waitForTurn: boolean,
  ): Promise<{ ran: true; result: BatchResult } | { ran: false }> {
    const batch = () => this.runHeld(projections, handledBy, size, checkpointOf);
    return waitForTurn ? { ran: true, result: await this.alone(batch) } : this.readStore.exclusive(LOCK, batch);
  }

  /** One batch as `run` makes it, by a caller that holds the lock already (see `hold`). */
  async runHeld(
    projections: readonly ReadModelProjection[],
    handledBy: ReadonlyMap<ReadModelProjection, ReadonlySet<string>>,
    size: number,
    checkpointOf: (p: ReadModelProjection) => string,
  ): Promise<BatchResult> {
    const checkpoints = await Promise.all(projections.map((p) => this.readStore.getCheckpoint(checkpointOf(p))));
    const from = checkpoints.length ? Math.min(...checkpoints) : await this.events.headPosition();
    const events = await this.events.readAll(from, size);
    const handled = projections.map((p) => handledBy.get(p)!);
    for (const recorded of events) {
      const event = this.upcasters.upcast(recorded);
      // Handing each projection only its own types saves an await per projection and event:
      // a rebuild of two million events made 14 million of them for nothing.
      for (let i = 0; i < projections.length; i++) {
        if (event.position > checkpoints[i] && handled[i].has(event.type)) await projections[i].apply(event);
      }
    }
    const last = events.length ? events[events.length - 1].position : from;
    for (let i = 0; i < projections.length; i++) {
      if (last > checkpoints[i]) await this.readStore.setCheckpoint(checkpointOf(projections[i]), last);
    }
    // Every checkpoint is now at least `last`; the slowest projection bounds what is readable.
    const lowest = checkpoints.length ? Math.min(...checkpoints.map((c) => Math.max(c, last))) : last;
    return { count: events.length, position: lowest };
  }

  /**
   * Takes the projections' lock and keeps it (renewed) until the answered release is called: a
   * rebuild beside running services holds it from its last batches to its checkpoints' move, so
   * no service batch falls between them.
   */
  async hold(): Promise<() => Promise<void>> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    const holding = this.alone(async () => {
      held();
      await released;
    });
    await Promise.race([isHeld, holding]);
    return async () => {
      release();
      await holding;
    };
  }

  /** Moves `names`' checkpoints up to `position`, under the lock (`held`: the caller's). */
  advanceCheckpoints(names: readonly string[], position: number, held = false): Promise<void> {
    const advance = async () => {
      for (const name of names) await this.readStore.setCheckpoint(name, position);
    };
    return held ? advance() : this.alone(advance);
  }

  /** Sets `names`' checkpoints back to the start, under the lock. */
  resetCheckpoints(names: readonly string[]): Promise<void> {
    return this.alone(async () => {
      for (const name of names) await this.readStore.resetCheckpoint(name, 0);
    });
  }

  async lowestCheckpoint(projections: readonly ReadModelProjection[]): Promise<number> {
    const checkpoints = await Promise.all(projections.map((p) => this.readStore.getCheckpoint(p.name)));
    return checkpoints.length ? Math.min(...checkpoints) : 0;
  }
}
