import { WriterThread } from '../sqlite/writer-thread';
import { IntegerKeys } from './integer-keys';
import { LargestKeys } from './largest-keys';
import { Batch, CollectionHost, HandedBatch, Pending, Writes } from './sqlite-rows';

/**
 * What the SQLite read store knows of its batches: the one being made, those handed to a
 * writer thread and not yet committed, and the writer threads themselves; and the view of
 * them its collections are given (`host`).
 */
export class BatchState {
  batch: Batch = null;
  /** The thread that writes the store's batches, started with the first. */
  live: WriterThread | null = null;
  /** Whether the live writer holds writes not yet committed: reads of the file would not see them. */
  uncommitted = false;
  /** During a refill, the thread that writes its batches; null otherwise. */
  refillWriter: WriterThread | null = null;
  readonly writes: Writes = {
    run: (statement, args, changes) => {
      const writer = this.refillWriter ?? this.live!;
      writer.run({ sql: statement.source, args });
      if (writer === this.live) this.uncommitted = true;
      return changes;
    },
  };
  /** Batches handed to a writer thread and not yet committed by it, oldest first. */
  handed: HandedBatch[] = [];
  /** The checkpoints the current batch sets. */
  batchCheckpoints: Map<string, number> | null = null;
  /** Tables the current batch emptied. */
  cleared = new Set<string>();
  /** Whether every write handed on is committed: this connection's file then holds them all. */
  readonly allCommitted = (): boolean => this.refillWriter === null && !this.uncommitted;
  /**
   * During a refill, the integer keys each refilled table has rows of. The tables start empty,
   * so a key not here needs no lookup: a rebuild looks up every document it creates, in a file
   * whose page cache each commit of the writer thread empties (9 % of its main thread).
   */
  refilledKeys = new Map<string, IntegerKeys>();

  readonly host: CollectionHost = {
    batch: () => this.batch,
    writes: () => this.writes,
    writer: () => this.refillWriter ?? (this.uncommitted ? this.live : null),
    refilling: () => this.refillWriter !== null,
    inserted: (table, key) => this.largestKeys.inserted(table, key),
    handedOn: (table, key) => {
      for (let i = this.handed.length - 1; i >= 0; i--) {
        const held = this.handed[i].batch.get(table)?.get(key);
        if (held) return held;
      }
      return undefined;
    },
    surelyAbsent: (table, key) => {
      const keys = this.refilledKeys.get(table);
      // Inside a batch only: it looked for other writers' commits as it began, and commits only if none came since.
      if (!keys) return this.batch !== null && this.largestKeys.surelyAbsent(table, key);
      const n = IntegerKeys.of(key);
      return n !== null && !keys.has(n);
    },
    inBatch: async (work) => (await this.alone(work)).result,
  };

  constructor(
    readonly largestKeys: LargestKeys,
    private readonly alone: <R>(work: () => Promise<R>) => Promise<{ ran: true; result: R }>,
  ) {}

  /** A writer thread that failed writes nothing more: the next batch starts another. */
  dropLive(): void {
    void this.live?.close().catch(() => undefined);
    this.live = null;
  }

  /** Notes which rows of the refilled tables a batch made or deleted. */
  keepKeys(batch: Map<string, Map<string, Pending>>): void {
    for (const [table, docs] of batch) {
      const keys = this.refilledKeys.get(table);
      if (!keys) continue;
      for (const [key, held] of docs) {
        const n = IntegerKeys.of(key);
        if (n !== null) keys.set(n, held.columns !== null);
      }
    }
  }

  /** A refill's batch, read from here until its writer commits it. */
  handOn(handed: HandedBatch): void {
    this.handed.push(handed);
    void handed.committed.then(() => {
      const at = this.handed.indexOf(handed);
      if (at >= 0) this.handed.splice(at, 1);
    });
  }
}
