import Database from 'better-sqlite3';
import { limitClause } from '../sqlite/limit-clause';
import { prepared } from '../sqlite/prepared';
import { Collection, DocId, DocumentView, Filter, FindOptions, Snapshot, noView } from '../../shared/ports/document-store.port';
import { RunningCounts } from './running-counts';
import { Held, SqliteBatch, Writes, absent } from './sqlite-batch';
import { dataVersion } from '../sqlite/data-version';
import { SqliteDocumentCache } from './sqlite-document-cache';
import { SqlitePageAnchors } from './sqlite-page-anchors';
import { SqliteSnapshot } from './sqlite-snapshot';
import { Bind, columnValue, fieldColumn, path, where } from './sqlite-sql';

/** What a collection asks of its store. */
export interface CollectionHost {
  /** The connection of the moment: a rebuild writes a file of its own. */
  db(): Database.Database;
  /** The batch being made, or null. */
  batch(): SqliteBatch | null;
  /**
   * During a rebuild, the keys written to this table since it was made empty: any other has no
   * row, and is not looked up. Undefined otherwise.
   */
  written(table: string): Set<string> | undefined;
  /** During a rebuild, the document as a batch handed on and not yet committed left it. */
  handedOn(table: string, key: string): Held | undefined;
  /** Stored documents kept parsed. */
  cache: SqliteDocumentCache;
  /** Runs work as a batch of its own. */
  inBatch<R>(work: () => Promise<R>): Promise<R>;
}

/**
 * A collection of the SQLite read store: a table of JSON documents, each field its indexes name
 * copied into a column of its own. Inside a batch, documents are read once and held, and `get`
 * answers them as the batch left them; the batch writes each it changed once, when it commits.
 * `find` and `count` read the file: what is committed.
 */
export class SqliteCollection<T extends object> implements Collection<T> {
  private readonly indexed: Set<string>;
  /** Stores a document unless the row holds one from the same or a later position. */
  private readonly upsertSql: string;
  /** Stores a document unless a row or a tombstone holds its id. */
  private readonly addSql: string;
  readonly counts: RunningCounts;
  private readonly anchors: SqlitePageAnchors;

  constructor(
    private readonly host: CollectionHost,
    private readonly name: string,
    readonly table: string,
    /** The fields the declared indexes name, each copied into its own column. */
    private readonly fields: string[],
    private readonly view: DocumentView<T> | undefined,
    /** A count slower than this keeps its fields' totals from then on. */
    slowCountMs: number,
  ) {
    this.indexed = new Set(fields);
    const columns = ['id', 'pos', 'doc', 'view', ...fields.map(fieldColumn)];
    this.upsertSql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${columns
         .slice(1)
         .map((c) => `${c} = excluded.${c}`)
         .join(', ')} WHERE ${table}.pos < excluded.pos`;
    this.addSql = `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${columns.map(() => '?').join(', ')}
       WHERE NOT EXISTS (SELECT 1 FROM tombstones WHERE tbl = ? AND id = ?) ON CONFLICT (id) DO NOTHING`;
    this.counts = new RunningCounts(host.db, name, table, slowCountMs, (field) => this.expression(field));
    this.anchors = new SqlitePageAnchors(table, host.db);
  }

  /** Documents returned by `get` inside a batch are shared with it: callers build new ones rather than mutate them. */
  async get(id: DocId): Promise<T | null> {
    return this.now(String(id));
  }

  async getMany(ids: DocId[]): Promise<T[]> {
    return [...new Set(ids.map(String))].map((id) => this.now(id)).filter((doc): doc is T => doc !== null);
  }

  /** `get`'s answer without waiting for it (every read here is synchronous): no promise for each document. */
  private now(key: string): T | null {
    const batch = this.host.batch();
    return (batch ? this.heldIn(batch, key) : this.read(key)).doc as T | null;
  }

  /** The document as `batch` holds it, read into the batch first. */
  private heldIn(batch: SqliteBatch, key: string): Held {
    const held = batch.held(this.table);
    let doc = held.get(key);
    if (!doc || doc.added) held.set(key, (doc = this.lookUp(batch, key, doc)));
    return doc;
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<T[]> {
    const { cache } = this.host;
    const version = dataVersion(this.host.db());
    return this.rows('id, pos, doc', filter, options).map(
      ([id, pos, doc]) => cache.stored(this.table, id as string, pos as number, () => JSON.parse(doc as string) as object, version) as T,
    );
  }

  async findViews(filter?: Filter, options: FindOptions = {}): Promise<string[]> {
    if (!this.view) throw noView(this.name);
    return this.rows('view', filter, options).map(([view]) => view as string);
  }

  async count(filter: Filter = {}): Promise<number> {
    const kept = this.counts.kept(filter);
    if (kept !== null) return kept;
    const { sql, params } = where(filter, this.expression);
    const started = performance.now();
    const n = prepared(this.host.db(), `SELECT count(*) FROM ${this.table} ${sql}`)
      .pluck()
      .get(...params) as number;
    this.counts.learn(filter, performance.now() - started);
    return n;
  }

  async snapshot(filter: Filter = {}): Promise<Snapshot<T>> {
    return new SqliteSnapshot<T>(this.host.db().name, this.table, where(filter, this.expression), this.expression('id'));
  }

  async countBy(field: string, filter: Filter = {}): Promise<Map<string | number, number>> {
    const { sql, params } = where(filter, this.expression);
    const value = this.expression(field);
    const rows = prepared(this.host.db(), `SELECT ${value}, count(*) FROM ${this.table} ${sql} GROUP BY 1`)
      .raw()
      .all(...params) as Array<[string | number | null, number]>;
    return new Map(rows.filter((row): row is [string | number, number] => row[0] !== null));
  }

  async upsert(id: DocId, doc: T, position: number): Promise<boolean> {
    const batch = this.host.batch();
    if (!batch) return this.host.inBatch(() => this.upsert(id, doc, position));
    const key = String(id);
    const current = this.heldIn(batch, key);
    // An absent document has position 0; a deleted one keeps its deletion's.
    if (current.pos >= position && (current.doc !== null || current.pos > 0)) return false;
    batch.held(this.table).set(key, { ...current, doc, pos: position, dirty: true });
    return true;
  }

  async add(id: DocId, doc: T, position: number): Promise<void> {
    const batch = this.host.batch();
    if (!batch) return this.host.inBatch(() => this.add(id, doc, position));
    const key = String(id);
    const held = batch.held(this.table);
    // Not read first: the write itself leaves what the file holds (a rebuild knows what it wrote).
    if (!held.has(key) && !this.host.written(this.table)) {
      held.set(key, { doc, stored: null, pos: position, dirty: true, added: true });
      return;
    }
    const current = held.get(key) ?? this.lookUp(batch, key);
    if (current.doc === null && current.pos === 0) held.set(key, { ...current, doc, pos: position, dirty: true });
  }

  async delete(id: DocId, position: number): Promise<boolean> {
    const batch = this.host.batch();
    if (!batch) return this.host.inBatch(() => this.delete(id, position));
    const key = String(id);
    const current = this.heldIn(batch, key);
    if (current.pos > position) return false;
    batch.held(this.table).set(key, { ...current, doc: null, pos: position, dirty: true });
    return current.doc !== null;
  }

  /** What the file holds; with `added`, the document added stays unless the file holds the id. */
  private lookUp(batch: SqliteBatch, key: string, added?: Held): Held {
    const found = this.fileHolds(batch, key);
    return added && found.doc === null && found.pos === 0 ? { ...added, added: false } : found;
  }

  private fileHolds(batch: SqliteBatch, key: string): Held {
    if (batch.emptied(this.table)) return absent;
    const handed = this.host.handedOn(this.table, key);
    if (handed) return { ...handed, stored: handed.doc, dirty: false };
    // The batch's reads are checked against other connections' commits when it commits.
    return this.host.written(this.table)?.has(key) === false ? absent : this.read(key, batch.dataVersion);
  }

  /** The batch emptied the table. */
  cleared(writes: Writes): void {
    this.anchors.changed();
    this.counts.cleared(writes);
  }

  /** Writes the documents the batch changed in this table, and moves the running totals. */
  write(batch: SqliteBatch, writes: Writes): void {
    const changes: Array<{ before: object | null; after: object | null }> = [];
    const written = this.host.written(this.table);
    for (const [key, held] of batch.held(this.table)) {
      if (!held.dirty) continue;
      this.anchors.changed();
      written?.add(key);
      this.host.cache.forget(this.table, key);
      const changed = this.writeRow(writes, key, held);
      if (changed) changes.push({ before: held.stored, after: held.doc });
      // An entry added over one the file held is not known: it is read again when asked for.
      if (changed || !held.added) batch.written.push({ table: this.table, key, doc: held.doc, pos: held.pos });
      held.stored = held.doc;
      held.dirty = false;
    }
    this.counts.move(changes, writes);
  }

  /** Whether the write changed the file (an upsert from an earlier position does not). */
  private writeRow(writes: Writes, key: string, held: Held): boolean {
    if (held.doc === null) {
      writes('INSERT INTO tombstones (tbl, id, pos) VALUES (?, ?, ?) ON CONFLICT (tbl, id) DO UPDATE SET pos = max(pos, excluded.pos)', [
        this.table,
        key,
        held.pos,
      ]);
      return held.stored !== null && writes(`DELETE FROM ${this.table} WHERE id = ?`, [key]);
    }
    const view = this.view ? JSON.stringify(this.view(held.doc as T)) : null;
    if (held.stored !== null && !held.added) return this.update(writes, key, held, view);
    const row: Bind[] = [key, held.pos, JSON.stringify(held.doc), view, ...this.fields.map((field) => columnValue(held.doc!, field))];
    return held.added ? writes(this.addSql, [...row, this.table, key]) : writes(this.upsertSql, row);
  }

  /**
   * A row the batch read, written again with only the indexed columns whose values moved: SQLite
   * rewrites the entry of every index whose column an UPDATE sets, changed or not, and a call's
   * row has fourteen. What the batch read is what the file holds: its commit fails when another
   * connection wrote since it began, and a rebuild's file has no writer but the rebuild.
   */
  private update(writes: Writes, key: string, held: Held, view: string | null): boolean {
    const sets = ['pos = ?', 'doc = ?', 'view = ?'];
    const values: Bind[] = [held.pos, JSON.stringify(held.doc), view];
    for (const field of this.fields) {
      const value = columnValue(held.doc!, field);
      if (value === columnValue(held.stored!, field)) continue;
      sets.push(`${fieldColumn(field)} = ?`);
      values.push(value);
    }
    return writes(`UPDATE ${this.table} SET ${sets.join(', ')} WHERE id = ? AND pos < ?`, [...values, key, held.pos]);
  }

  private expression = (field: string): string => (this.indexed.has(field) ? fieldColumn(field) : path(field));

  /** Columns of the rows a filter matches, in order; a deep page of a list sorted on one field starts from an anchor. */
  private rows(columns: string, filter: Filter = {}, options: FindOptions = {}): Bind[][] {
    const clause = where(filter, this.expression);
    const { sort = [], skip, limit } = options;
    if (skip && limit !== undefined && sort.length === 1) {
      const [[field, direction]] = sort;
      return this.anchors.page({ columns, where: clause, key: this.expression(field), descending: direction === 'desc' }, skip, limit);
    }
    const order = sort.length ? `ORDER BY ${sort.map(([f, d]) => `${this.expression(f)} ${d === 'desc' ? 'DESC' : 'ASC'}`).join(', ')}` : '';
    // SQLite takes an OFFSET only after a LIMIT; -1 is none.
    const limited = limit !== undefined ? limitClause(limit) : skip ? 'LIMIT -1' : '';
    const text = `SELECT ${columns} FROM ${this.table} ${clause.sql} ${order} ${limited}${skip ? ' OFFSET ?' : ''}`;
    const args = skip ? [...clause.params, skip] : clause.params;
    return prepared(this.host.db(), text)
      .raw()
      .all(...args) as Bind[][];
  }

  private read(key: string, version?: number): Held {
    return this.host.cache.get(this.table, key, () => this.readRow(key), version);
  }

  /** The row, else its tombstone (the position of its deletion), in one statement. */
  private readRow(key: string): Held {
    const row = prepared(
      this.host.db(),
      `SELECT doc, pos, 0 AS k FROM ${this.table} WHERE id = ? UNION ALL SELECT NULL, pos, 1 FROM tombstones WHERE tbl = ? AND id = ? ORDER BY k LIMIT 1`,
    ).get(key, this.table, key) as { doc: string | null; pos: number } | undefined;
    if (!row) return absent;
    if (row.doc === null) return { ...absent, pos: row.pos };
    const doc = JSON.parse(row.doc) as object;
    return { doc, stored: doc, pos: row.pos, dirty: false };
  }
}
