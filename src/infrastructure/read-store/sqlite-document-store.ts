import Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import { prepared } from '../sqlite/prepared';
import { Collection, CollectionOptions, DocumentStore, IndexSpec } from '../../shared/ports/document-store.port';
import { RunningCounts } from './running-counts';
import { OtherWriterCommitted, SqliteBatch, Statement, Writes } from './sqlite-batch';
import { dataVersion, freshDataVersion } from '../sqlite/data-version';
import { RebuildWriter } from './sqlite-rebuild-writer';
import { SqliteBatchScope } from './sqlite-batch-scope';
import { SqliteCollection } from './sqlite-collection';
import { SqliteCounters } from './sqlite-counters';
import { SqliteDocumentCache } from './sqlite-document-cache';
import { copyKeptTables, rebuildFileOf, refuseWhileRebuilt, removeSqliteFile, swapIn } from './sqlite-rebuild-file';
import { analyze, columnsOf, createIndexes, createTable, keepIndexes, keepViews } from './sqlite-schema';
import { tableName } from './sqlite-sql';

/**
 * Read models in one SQLite file: a table per collection holding JSON documents, each field
 * the lists filter and sort by copied into a column of its own, and indexes on those columns.
 * One batch at a time per process; a batch holds what it reads and writes it all in one
 * transaction at its end, made again if another process committed meanwhile.
 */
export class SqliteDocumentStore implements DocumentStore {
  readonly refillsBesideServices = false;
  private db: Database.Database;
  private readonly collections = new Map<string, SqliteCollection<any>>();
  private readonly declared = new Map<string, { indexes: IndexSpec[]; fields: string[] }>();
  private readonly scope = new SqliteBatchScope();
  /**
   * During a rebuild: its writer, the keys written to each refilled table (any other has no
   * row), and the checkpoints set (the writer may not have committed them yet).
   */
  private rebuild: { writer: RebuildWriter; written: Map<string, Set<string>>; checkpoints: Map<string, number> } | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly optimizer: NodeJS.Timeout;
  private readonly counters: SqliteCounters;
  private readonly host = {
    db: () => this.db,
    batch: () => this.batch,
    written: (table: string) => this.rebuild?.written.get(table),
    handedOn: (table: string, key: string) => this.rebuild?.writer.held(table, key),
    cache: new SqliteDocumentCache(() => this.db),
    inBatch: async <R>(work: () => Promise<R>) => (await this.exclusive('', work)).result,
  };

  /** The batch the caller's own work runs in, if any. */
  private get batch(): SqliteBatch | null {
    return this.scope.current();
  }

  /** `slowCountMs`: a count slower than this keeps running totals of its fields from then on (see RunningCounts). */
  constructor(
    private readonly file: string,
    private readonly options: { slowCountMs?: number } = {},
  ) {
    refuseWhileRebuilt(file);
    this.db = this.open(file, true);
    this.counters = new SqliteCounters(file.replace(/(\.db)?$/, '.counters.db'));
    this.optimizer = setInterval(() => void this.serially(async () => this.db.open && analyze(this.db, 'PRAGMA optimize')), 600_000);
    this.optimizer.unref();
  }

  private open(file: string, durable: boolean): Database.Database {
    const db = openSqlite(file, { durable });
    // docs/privacy.md: an erased value overwritten in its page, not left in free space.
    db.pragma('secure_delete = ON');
    // Statistics let the planner pick the most selective of several indexes.
    analyze(db, 'PRAGMA optimize = 0x10002');
    db.exec(`
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS tombstones (tbl TEXT NOT NULL, id TEXT NOT NULL, pos INTEGER NOT NULL, PRIMARY KEY (tbl, id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL, token INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS viewed_collections (collection TEXT PRIMARY KEY);
      ${RunningCounts.schema}
    `);
    return db;
  }

  collection<T extends object>(name: string, options: CollectionOptions<T> = {}): Collection<T> {
    const existing = this.collections.get(name);
    if (existing) return existing;
    const { indexes = [], view } = options;
    const table = tableName(name);
    const fields = [...new Set(indexes.flatMap((index) => index.fields))];
    const changed = this.db.transaction(() => {
      createTable(this.db, table, fields);
      if (!columnsOf(this.db, table).includes('view')) this.db.exec(`ALTER TABLE ${table} ADD COLUMN view TEXT`);
      return keepIndexes(this.db, table, indexes, fields);
    })();
    // New indexes get statistics at once (sampled: a few rows per index), for the planner's choice.
    if (changed) analyze(this.db, `PRAGMA analysis_limit = 1000; ANALYZE ${table}; PRAGMA analysis_limit = 0`);
    keepViews(this.db, name, table, view);
    this.declared.set(name, { indexes, fields });
    const collection = new SqliteCollection<T>(this.host, name, table, fields, view, this.options.slowCountMs ?? 1);
    this.collections.set(name, collection);
    return collection;
  }

  async getCheckpoint(name: string): Promise<number> {
    const set = this.batch?.checkpoints.get(name) ?? this.rebuild?.checkpoints.get(name);
    if (set !== undefined) return set;
    const position = (prepared(this.db, 'SELECT position FROM checkpoints WHERE name = ?').pluck().get(name) as number | undefined) ?? 0;
    // Outside a batch, a checkpoint read tells a waiting reader what it may read now: the
    // documents it reads next must be as new as it, even those kept from before another
    // connection's commit that moved it. (A batch's commit checks the counter itself.)
    if (!this.batch) freshDataVersion(this.db);
    return position;
  }

  async setCheckpoint(name: string, position: number): Promise<void> {
    if (!this.batch) return this.host.inBatch(() => this.setCheckpoint(name, position));
    if (position > (await this.getCheckpoint(name))) this.batch.checkpoints.set(name, position);
  }

  async resetCheckpoint(name: string, position: number): Promise<void> {
    if (!this.batch) return this.host.inBatch(() => this.resetCheckpoint(name, position));
    this.batch.checkpoints.set(name, position);
    this.batch.resets.add(name);
  }

  /** One statement, so atomic between processes: taken when new, lapsed or already the owner's. */
  async lease(name: string, owner: string, now: number, ttlMs: number): Promise<number | null> {
    const row = prepared(
      this.db,
      `INSERT INTO leases (name, owner, expires_at, token) VALUES (?, ?, ?, 1)
       ON CONFLICT (name) DO UPDATE SET token = CASE WHEN owner = excluded.owner THEN token ELSE token + 1 END,
         owner = excluded.owner, expires_at = excluded.expires_at
       WHERE owner = excluded.owner OR expires_at <= ?
       RETURNING token`,
    ).get(name, owner, now + ttlMs, now) as { token: number } | undefined;
    return row?.token ?? null;
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    prepared(this.db, 'UPDATE leases SET expires_at = 0 WHERE name = ? AND owner = ?').run(name, owner);
  }

  async countHit(name: string, expiresAt: number, now: number): Promise<number> {
    return this.counters.hit(name, expiresAt, now);
  }

  async leaseHolder(name: string, now: number): Promise<string | null> {
    return (prepared(this.db, 'SELECT owner FROM leases WHERE name = ? AND expires_at > ?').pluck().get(name, now) as string | undefined) ?? null;
  }

  forgetOverwritten(): Promise<void> {
    return this.serially(async () => {
      // A reader in another connection (the checkpointer, another process) holds the log a moment.
      for (let tries = 0; (this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0].busy; tries++) {
        if (tries === 100) throw new Error('The read store log could not be cut: a reader held it for 5 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
  }

  compact(): Promise<void> {
    return this.serially(async () => {
      this.db.exec('VACUUM');
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    });
  }

  async clearCollection(name: string): Promise<void> {
    if (!this.batch) return this.host.inBatch(() => this.clearCollection(name));
    this.batch.clear(tableName(name));
  }

  exclusive<R>(_lock: string, work: () => Promise<R>): Promise<{ ran: true; result: R }> {
    return this.serially(async () => {
      for (;;) {
        const batch = new SqliteBatch(dataVersion(this.db));
        try {
          const result = await this.scope.run(batch, work, this.rebuild !== null);
          if (!batch.unchanged) await this.commit(batch);
          return { ran: true as const, result };
        } catch (error) {
          if (this.db.inTransaction) this.db.exec('ROLLBACK');
          if (!(error instanceof OtherWriterCommitted)) throw error;
        }
      }
    });
  }

  /**
   * Writes the batch in one transaction, unless another connection committed since it began;
   * during a rebuild, hands it to the rebuild's writer.
   */
  private async commit(batch: SqliteBatch): Promise<void> {
    if (this.rebuild) {
      const statements: Statement[] = [];
      this.write(batch, (sql, args) => statements.push([sql, args]) > 0);
      for (const [name, position] of batch.checkpoints) this.rebuild.checkpoints.set(name, position);
      return this.rebuild.writer.hand(batch, statements);
    }
    this.db.exec('BEGIN IMMEDIATE');
    if (freshDataVersion(this.db) !== batch.dataVersion) throw new OtherWriterCommitted();
    this.write(batch, (sql, args) => prepared(this.db, sql).run(...args).changes > 0);
    this.db.exec('COMMIT');
    for (const { table, key, doc, pos } of batch.written) this.host.cache.remember(table, key, doc, pos, batch.dataVersion);
  }

  private write(batch: SqliteBatch, writes: Writes): void {
    if (batch.cleared.size) this.host.cache.clear();
    for (const table of batch.cleared) {
      if (this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)) writes(`DELETE FROM ${table}`, []);
      writes('DELETE FROM tombstones WHERE tbl = ?', [table]);
      [...this.collections.values()].find((c) => c.table === table)?.cleared(writes);
    }
    for (const collection of this.collections.values()) collection.write(batch, writes);
    const reset = 'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position';
    const forward = 'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = max(position, excluded.position)';
    for (const [name, position] of batch.checkpoints) writes(batch.resets.has(name) ? reset : forward, [name, position]);
  }

  /**
   * Writes the collections again from nothing into a new file, the others copied into it, then
   * renames it over the store. Its commits are not synced: a rebuild cut short leaves the store as
   * it was, and its own file for the next open to remove.
   */
  async refill<R>(names: string[], work: () => Promise<R>): Promise<R> {
    const live = this.db;
    const freshFile = rebuildFileOf(this.file);
    const refilled = names.map((name) => ({ name, table: tableName(name), declared: this.declared.get(name) }));
    const fresh = await this.serially(async () => {
      removeSqliteFile(freshFile);
      const fresh = this.open(freshFile, false);
      copyKeptTables(live, fresh, new Set(refilled.map((r) => r.table)));
      for (const { name, table, declared } of refilled) {
        createTable(fresh, table, declared?.fields ?? []);
        createIndexes(fresh, table, declared?.indexes ?? []);
        fresh.prepare('DELETE FROM running_counts WHERE collection = ?').run(name);
        fresh.prepare('DELETE FROM tombstones WHERE tbl = ?').run(table);
      }
      this.db = fresh;
      this.host.cache.clear();
      const written = new Map(refilled.map(({ table }) => [table, new Set<string>()]));
      this.rebuild = { writer: new RebuildWriter(freshFile), written, checkpoints: new Map() };
      this.scope.refillBegins();
      return fresh;
    });
    const writer = this.rebuild!.writer;
    try {
      const result = await work();
      await this.serially(async () => {
        await writer.drain();
        await writer.close();
        this.rebuild = null;
        analyze(fresh, 'PRAGMA analysis_limit = 1000; ANALYZE; PRAGMA analysis_limit = 0');
        swapIn(fresh, freshFile, live, this.file);
        this.db = this.open(this.file, true);
        this.host.cache.clear();
      });
      return result;
    } catch (error) {
      await this.serially(async () => {
        this.rebuild = null;
        await writer.close();
        if (fresh.open) fresh.close();
        removeSqliteFile(freshFile);
        this.db = live.open ? live : this.open(this.file, true);
        this.host.cache.clear();
      });
      throw error;
    }
  }

  private serially<R>(run: () => Promise<R>): Promise<R> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Tables and indexes are made as collections are opened. */
  async ready(): Promise<void> {}

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    clearInterval(this.optimizer);
    await this.queue;
    this.counters.close();
    if (this.db.open) this.db.close();
  }
}
