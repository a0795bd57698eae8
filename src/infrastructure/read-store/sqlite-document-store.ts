import Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import { UnsyncedMark, discardUnsynced } from '../sqlite/unsynced-mark';
import { GuardedCommit, WriterThread } from '../sqlite/writer-thread';
import { Collection, CollectionOptions, DocumentStore, IndexSpec } from './document-store.port';
import { IntegerKeys } from './integer-keys';
import { LargestKeys } from './largest-keys';
import { COUNT_COMMIT, OtherWriters, READ_COMMIT_COUNT } from './other-writers';
import { RememberedRows } from './remembered-rows';
import { StoredValuesFilter, tableValues } from './stored-values-filter';
import { Counts } from './running-counts';
import { SqliteCollection } from './sqlite-collection';
import { BatchState } from './sqlite-batch-state';
import { analyze, columnsOf, createIndexes, createTable, fillCounts, keepIndexes, keepStatistics, keepViews, endTallies, statisticsOf } from './sqlite-schema';
import { HandedBatch, Pending, Row } from './sqlite-rows';
import { bind, fieldColumn, tableName } from './sqlite-sql';

/** Pages of a new read store: its rows are about a kilobyte, and a rebuild writes a million of them faster in 16 KB pages. */
const PAGE_SIZE = 16_384;

/**
 * Read models in one SQLite file: a table per collection holding JSON documents, each field
 * the lists filter and sort by copied into a column of its own, and indexes on those columns.
 */
export class SqliteDocumentStore implements DocumentStore {
  readonly atomicBatches = true;
  private readonly db: Database.Database;
  private readonly collections = new Map<string, SqliteCollection<any>>();
  private readonly declared = new Map<string, { indexes: IndexSpec[]; fields: string[]; counts: Counts | null; storedValues?: StoredValuesFilter }>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly optimizer: NodeJS.Timeout;
  private readonly statements;
  private readonly otherWriters: OtherWriters;
  private readonly remembered: RememberedRows<Row>;
  private readonly state: BatchState;

  /** `now` (milliseconds, monotonic) times the looks for other connections' commits. */
  constructor(
    private readonly file: string,
    options: { now?: () => number } = {},
  ) {
    // A store a rebuild left unsynced may be torn: the projections make it again from nothing.
    discardUnsynced(file);
    this.db = openSqlite(file, { pageSize: PAGE_SIZE });
    this.otherWriters = new OtherWriters(this.db, options.now);
    this.remembered = new RememberedRows(this.otherWriters);
    this.state = new BatchState(new LargestKeys(this.db, this.otherWriters, () => this.state.allCommitted()), (work) => this.exclusive('alone', work));
    // Statistics let the planner pick the most selective of several indexes.
    analyze(this.db, 'PRAGMA optimize = 0x10002');
    // Between batches: during one, its writer thread holds the write lock an analysis may need.
    this.optimizer = setInterval(() => void this.serially(async () => this.db.open && analyze(this.db, 'PRAGMA optimize')), 600_000);
    this.optimizer.unref();
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS counts (collection TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (collection, key)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS counted_sets (collection TEXT PRIMARY KEY, sets TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS viewed_collections (collection TEXT PRIMARY KEY);
    `);
    this.statements = {
      getCheckpoint: this.db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE name = ?'),
      setCheckpoint: this.db.prepare<[string, number]>(
        'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
      ),
    };
  }

  collection<T extends object>(name: string, options: CollectionOptions<T> = {}): Collection<T> {
    const { indexes = [], counts: countedSets = [], view } = options;
    const existing = this.collections.get(name);
    if (existing) return existing;
    const table = tableName(name);
    const fields = [...new Set(indexes.flatMap((index) => index.fields))];
    const changed = this.db.transaction(() => {
      createTable(this.db, table, fields);
      if (!columnsOf(this.db, table).includes('view')) this.db.exec(`ALTER TABLE ${table} ADD COLUMN view TEXT`);
      const changed = keepIndexes(this.db, table, indexes, fields);
      // Its rows' columns changed: other stores on the file forget those they keep.
      if (changed) this.otherWriters.countOwnCommit();
      return changed;
    })();
    // New indexes get statistics at once (sampled: a few rows per index), for the planner's choice.
    if (changed) analyze(this.db, `PRAGMA analysis_limit = 1000; ANALYZE ${table}; PRAGMA analysis_limit = 0`);
    const counts = countedSets.length ? new Counts(this.db, () => this.state.writes, name, countedSets) : null;
    const storedValues = options.mostlyAbsent?.length
      ? new StoredValuesFilter(options.mostlyAbsent, fields, bind, tableValues(this.db, table, fields.map(fieldColumn)), this.otherWriters, this.state.allCommitted)
      : undefined;
    this.declared.set(name, { indexes, fields, counts, storedValues });
    fillCounts(this.db, name, table, countedSets);
    keepViews(this.db, name, table, view);
    const remembered = options.cached ? this.remembered : undefined;
    const collection = new SqliteCollection<T>(this.db, table, this.state.host, counts, name, fields, view, remembered, storedValues);
    this.collections.set(name, collection);
    return collection;
  }

  /**
   * Drops each table and makes it again (a DELETE of a million rows costs as much as writing
   * them); the work's batches are written by a writer thread of their own, unsynced, the file
   * marked so that a rebuild that does not finish is made again from nothing at the next open.
   */
  async refill<R>(names: string[], work: () => Promise<R>): Promise<R> {
    const refilled = names.map((name) => ({ name, table: tableName(name), declared: this.declared.get(name) }));
    // Begun and ended between two batches: during one, its writer thread holds the write lock.
    const { mark, statistics, writer } = await this.serially(async () => {
      const mark = UnsyncedMark.take(this.file);
      try {
        const statistics = statisticsOf(this.db, refilled.map((r) => r.table));
        this.db.transaction(() => {
          for (const { name, table, declared } of refilled) {
            this.remembered.forgetTable(table);
            // Left empty until the refill ends: counts meanwhile are asked of the writer thread.
            declared?.storedValues?.reset();
            this.state.largestKeys.forget(table);
            this.db.exec(`DROP TABLE IF EXISTS ${table}`);
            createTable(this.db, table, declared?.fields ?? []);
            createIndexes(this.db, table, declared?.indexes ?? []);
            this.db.prepare('DELETE FROM counts WHERE collection = ?').run(name);
            this.db.prepare('DELETE FROM counted_sets WHERE collection = ?').run(name);
            declared?.counts?.startTally();
          }
          this.otherWriters.countOwnCommit();
        })();
        const writer = new WriterThread(this.file);
        this.state.refillWriter = writer;
        this.state.refilledKeys = new Map(refilled.map(({ table }) => [table, new IntegerKeys()]));
        return { mark, statistics, writer };
      } catch (error) {
        mark.release();
        throw error;
      }
    });
    try {
      const failures: unknown[] = [];
      let result: R | undefined;
      try {
        result = await work();
      } catch (error) {
        failures.push(error);
      }
      await this.serially(async () => {
        this.state.refillWriter = null;
        await writer.close().catch((error: unknown) => failures.push(error));
        this.state.handed = [];
        this.state.refilledKeys = new Map();
        // Totals kept of batches the writer could not commit would be wrong: the collection stays
        // uncounted then, and is counted from its documents (here by SQL, at the next open by `fillCounts`).
        if (!writer.failure) this.db.transaction(() => endTallies(this.db, refilled))();
        if (!failures.length) keepStatistics(this.db, statistics);
      });
      if (failures.length) throw failures[0];
      return result as R;
    } finally {
      mark.release();
    }
  }

  async getCheckpoint(name: string): Promise<number> {
    let position = this.state.batchCheckpoints?.get(name);
    for (let i = this.state.handed.length - 1; position === undefined && i >= 0; i--) position = this.state.handed[i].checkpoints.get(name);
    return position ?? this.statements.getCheckpoint.get(name)?.position ?? 0;
  }

  async setCheckpoint(name: string, position: number): Promise<void> {
    if (!this.state.batchCheckpoints) return this.state.host.inBatch(() => this.setCheckpoint(name, position));
    this.state.writes.run(this.statements.setCheckpoint, [name, position], true);
    this.state.batchCheckpoints.set(name, position);
  }

  /**
   * One write transaction at a time per process (a promise queue), and per file (SQLite's
   * lock). Documents the work touches are held in memory and each written once at the end,
   * so a batch of events that changes one document many times writes it once; the running
   * totals it moves are summed and each written once too.
   */
  exclusive<R>(_lock: string, work: () => Promise<R>): Promise<{ ran: true; result: R }> {
    return this.serially(() => (this.state.refillWriter ? this.handOn(this.state.refillWriter, work) : this.writeBatch(work)));
  }

  private serially<R>(run: () => Promise<R>): Promise<R> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * A batch written by the store's writer thread: SQLite's inserts, index updates and commit
   * run on a connection of their own, off this thread (about 10 µs of its time a lead created).
   * The work reads the file here, without its write lock; the writer commits only if no other
   * writer has committed since this store last looked (the commit count, checked under the
   * lock), else the batch is made again from what the file holds then. The batch answers once
   * committed, its documents read from it meanwhile.
   */
  private async writeBatch<R>(work: () => Promise<R>): Promise<{ ran: true; result: R }> {
    for (;;) {
      if (this.state.live?.failure) this.state.dropLive();
      const writer = (this.state.live ??= new WriterThread(this.file, { synced: true }));
      this.otherWriters.look();
      const expected = this.otherWriters.seenCount;
      const { result, batch, checkpoints } = await this.makeBatch(writer, work);
      const handed: HandedBatch = { batch, checkpoints, committed: Promise.resolve() };
      this.state.handed.push(handed);
      this.otherWriters.commitStarts();
      let outcome: GuardedCommit | null;
      try {
        outcome = await writer.commit({ read: READ_COMMIT_COUNT, expected, count: COUNT_COMMIT });
      } catch (error) {
        this.otherWriters.commitFailed();
        this.batchEnds(false);
        this.state.dropLive();
        throw error;
      } finally {
        this.state.uncommitted = false;
        this.state.handed.splice(this.state.handed.indexOf(handed), 1);
      }
      if (outcome && 'conflict' in outcome) {
        this.otherWriters.commitFailed();
        this.batchEnds(false);
        continue;
      }
      this.otherWriters.committed(outcome?.count ?? null);
      this.batchEnds(true);
      return { ran: true as const, result };
    }
  }

  /**
   * Runs the work as the current batch: the documents it touches held here, their writes handed
   * to the writer at its end. A failure rolls the writer's transaction back.
   */
  private async makeBatch<R>(writer: WriterThread, work: () => Promise<R>) {
    const batch: Map<string, Map<string, Pending>> = (this.state.batch = new Map());
    const checkpoints = (this.state.batchCheckpoints = new Map<string, number>());
    for (const { counts } of this.declared.values()) counts?.batchStarts();
    try {
      const result = await work();
      for (const collection of this.collections.values()) collection.flush();
      return { result, batch, checkpoints };
    } catch (error) {
      writer.rollback();
      this.state.uncommitted = false;
      this.batchEnds(false);
      throw error;
    } finally {
      // Writes that come while the batch commits make batches of their own.
      this.state.batch = null;
      this.state.batchCheckpoints = null;
    }
  }

  private batchEnds(committed: boolean): void {
    for (const { counts } of this.declared.values()) counts?.batchEnds(committed);
    // Rows read here while the batch emptied their table may have been kept.
    for (const table of this.state.cleared) this.remembered.forgetTable(table);
    this.state.cleared.clear();
  }

  /**
   * A batch of a refill: its writes handed to the writer thread, to commit in one transaction
   * while the next batch is made here. At most two batches wait for the thread.
   */
  private async handOn<R>(writer: WriterThread, work: () => Promise<R>): Promise<{ ran: true; result: R }> {
    // A writer that failed has ended the refill: it goes no further.
    if (writer.failure) throw writer.failure;
    const { result, batch, checkpoints } = await this.makeBatch(writer, work);
    this.state.keepKeys(batch);
    // Other stores on the file learn of the refill's commits by the count.
    writer.run({ sql: COUNT_COMMIT, args: [] });
    // A failure is the writer's: the next batch and `close` answer it.
    const committed = writer.commit().catch(() => undefined);
    this.state.handOn({ batch, checkpoints, committed });
    this.batchEnds(true);
    while (this.state.handed.length > 2) await this.state.handed[0].committed;
    return { ran: true as const, result };
  }

  async clearCollection(name: string): Promise<void> {
    if (this.state.refillWriter) throw new Error(`Collection ${name} cannot be cleared while the store is refilled`);
    if (!this.state.batch) return this.state.host.inBatch(() => this.clearCollection(name));
    const table = tableName(name);
    this.state.batch.delete(table);
    this.state.cleared.add(table);
    this.remembered.forgetTable(table);
    this.declared.get(name)?.storedValues?.reset();
    const exists = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
    if (exists) this.state.writes.run(this.db.prepare(`DELETE FROM ${table}`), [], true);
    this.state.writes.run(this.db.prepare('DELETE FROM counts WHERE collection = ?'), [name], true);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    clearInterval(this.optimizer);
    await this.queue;
    await this.state.live?.close();
    this.state.live = null;
    if (this.db.open) this.db.close();
  }
}
