import Database from 'better-sqlite3';
import { copyWith } from '../../shared/copy-with';
import { limitClause } from '../sqlite/limit-clause';
import { openSqlite } from '../sqlite/open-sqlite';
import { statementsByText } from '../sqlite/statements-by-text';
import { UnsyncedMark, discardUnsynced } from '../sqlite/unsynced-mark';
import { GuardedCommit, WriterThread } from '../sqlite/writer-thread';
import { Collection, CollectionOptions, DocId, DocumentStore, DocumentView, Filter, FindOptions, IndexSpec, Scalar, noView } from './document-store.port';
import { IntegerKeys } from './integer-keys';
import { LargestKeys } from './largest-keys';
import { COUNT_COMMIT, OtherWriters, READ_COMMIT_COUNT } from './other-writers';
import { RememberedRows } from './remembered-rows';
import { StoredValuesFilter, tableValues } from './stored-values-filter';
import { assertFieldName, equalityFieldNames, isRange } from './filter-fields';
import { ValueTotals } from './value-totals';

type Bind = string | number | null;

const bind = (value: Scalar): Bind => (typeof value === 'boolean' ? (value ? 1 : 0) : value);
const path = (field: string) => `json_extract(doc, '$.${assertFieldName(field)}')`;
/** An indexed field's own column, a copy of the document's value kept at every write. */
const fieldColumn = (field: string) => `"doc.${assertFieldName(field)}"`;
const tableName = (name: string) => `rm_${assertFieldName(name).replace(/\./g, '_')}`;
const indexName = (table: string, index: IndexSpec) => `${table}__${index.fields.map((f) => f.replace(/\./g, '_')).join('__')}`;

const valueAt = (doc: object, field: string): unknown =>
  field.includes('.') ? field.split('.').reduce<any>((v, k) => (v == null ? undefined : v[k]), doc) : (doc as Record<string, unknown>)[field];

/** What `json_extract` answers for a field: the value its column holds and a filter compares with. */
function columnValue(doc: object, field: string): Bind {
  const value = valueAt(doc, field);
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Translates a filter into a WHERE clause: indexed fields compare their columns, others the JSON. */
function where(filter: Filter, expression: (field: string) => string): { sql: string; params: Bind[] } {
  const parts: string[] = [];
  const params: Bind[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    const column = expression(field);
    if (!isRange(condition)) {
      if (condition === null) parts.push(`${column} IS NULL`);
      else {
        parts.push(`${column} = ?`);
        params.push(bind(condition));
      }
      continue;
    }
    const ops: Array<[keyof typeof condition, string]> = [
      ['gt', '>'],
      ['gte', '>='],
      ['lt', '<'],
      ['lte', '<='],
    ];
    for (const [key, op] of ops) {
      const value = condition[key] as Scalar | undefined;
      if (value === undefined) continue;
      parts.push(`${column} ${op} ?`);
      params.push(bind(value));
    }
    if (condition.ne !== undefined) {
      if (condition.ne === null) parts.push(`${column} IS NOT NULL`);
      else {
        parts.push(`(${column} IS NULL OR ${column} != ?)`);
        params.push(bind(condition.ne));
      }
    }
    if (condition.in !== undefined) {
      if (condition.in.length === 0) parts.push('0');
      else {
        parts.push(`${column} IN (${condition.in.map(() => '?').join(', ')})`);
        params.push(...condition.in.map(bind));
      }
    }
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** A document the table has no row of. */
const absent = { doc: null, stored: null, pos: 0, columns: null } as const;

/** What the table holds for a document: the document (null when there is none) and its indexed values. */
interface Stored {
  stored: object | null;
  /** The indexed fields' columns as stored, in declared order; null when there is no row. */
  columns: Bind[] | null;
}

/** A row as the table holds it. */
interface Row extends Stored {
  doc: object | null;
  pos: number;
}

/** A document as the current batch has it: read once, changed in memory, written at commit. */
interface Pending extends Row {
  dirty: boolean;
}

/** Where the store's writes go: to its writer thread, or to a refill's. */
interface Writes {
  /** Hands a write on; answers whether it will change a row, as the caller knows (the batch read what it writes over). */
  run(statement: Database.Statement, args: Bind[], changes: boolean): boolean;
}

const onThisConnection: Writes = { run: (statement, args) => statement.run(...args).changes > 0 };

/**
 * Running totals of documents per value of a counted field set. A key is the field names
 * and the values as JSON, written alike from JS and (for a first fill) from SQL.
 */
class Counts {
  private readonly bump;
  /** Each counted set by its field names in sorted order, as a filter names them in any order. */
  private readonly setsByNames: Map<string, string[]>;
  /** Every field the sets name, once: a document's values are read once per write, not once per set. */
  private readonly fields: string[];
  /** Each set as the places of its fields in `fields`. */
  private readonly places: number[][];

  constructor(
    db: Database.Database,
    private readonly writes: () => Writes,
    private readonly collection: string,
    readonly sets: string[][],
  ) {
    this.bump = db.prepare<[string, string, number]>(
      'INSERT INTO counts (collection, key, n) VALUES (?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET n = n + excluded.n',
    );
    this.setsByNames = new Map(sets.map((set) => [[...set].sort().join(','), set]));
    this.fields = [...new Set(sets.flat())];
    this.places = sets.map((set) => set.map((field) => this.fields.indexOf(field)));
  }

  static key(fields: string[], values: unknown[]): string {
    return `${fields.join(',')}|[${values.map((v) => JSON.stringify(v ?? null)).join(',')}]`;
  }

  static keySql(fields: string[]): string {
    return `'${fields.join(',')}|[' || ${fields.map((f) => `coalesce(doc -> '$.${assertFieldName(f)}', 'null')`).join(` || ',' || `)} || ']'`;
  }

  /** While a refill writes, the totals are kept here (one per counted set) and written once at its end. */
  private tally: ValueTotals[] | null = null;
  /** A batch's moves (one per counted set), one write per total when the batch's documents are written. */
  private moves: ValueTotals[] | null = null;

  get kept(): boolean {
    return this.tally === null;
  }

  /** Moves a document from the totals of its old values to those of its new ones. */
  change(before: object | null, after: object | null): void {
    const was = before && this.fields.map((f) => valueAt(before, f));
    const is = after && this.fields.map((f) => valueAt(after, f));
    this.places.forEach((places, set) => {
      // Most writes leave most counted sets as they were: those move nothing.
      if (was && is && places.every((i) => was[i] === is[i])) return;
      if (was) this.add(set, places.map((i) => was[i]), -1);
      if (is) this.add(set, places.map((i) => is[i]), 1);
    });
  }

  startTally(): void {
    this.tally = this.newTotals();
  }

  /** Writes the totals kept since `startTally` (the store's totals of this collection were emptied then) on the store's own connection. */
  endTally(): void {
    const tally = this.tally;
    this.tally = null;
    this.write(tally, onThisConnection);
  }

  batchStarts(): void {
    this.moves = this.newTotals();
  }

  /** Writes the batch's moves so far (before its commit, or before a read inside it); a refill keeps them for its tally. */
  flushMoves(): void {
    if (this.tally || !this.moves) return;
    this.write(this.moves);
    this.moves = this.newTotals();
  }

  /** A refill's tally takes a batch's moves once the batch has committed: one that rolls back takes them with it. */
  batchEnds(committed: boolean): void {
    if (committed && this.tally && this.moves) this.tally.forEach((totals, set) => totals.addAll(this.moves![set]));
    this.moves = null;
  }

  private newTotals(): ValueTotals[] {
    return this.sets.map(() => new ValueTotals());
  }

  private add(set: number, values: unknown[], n: number): void {
    const pending = this.moves ?? this.tally;
    if (pending) pending[set].add(values, n);
    else this.writes().run(this.bump, [this.collection, Counts.key(this.sets[set], values), n], true);
  }

  private write(totals: ValueTotals[] | null, writes = this.writes()): void {
    totals?.forEach((totalsOfSet, set) => {
      for (const { values, n } of totalsOfSet.totals()) if (n !== 0) writes.run(this.bump, [this.collection, Counts.key(this.sets[set], values), n], true);
    });
  }

  /** The key of a filter made only of equalities over exactly one counted field set, else null. */
  keyFor(filter: Filter): string | null {
    const names = equalityFieldNames(filter);
    const fields = names === null ? undefined : this.setsByNames.get(names);
    return fields ? Counts.key(fields, fields.map((f) => filter[f])) : null;
  }
}

/** A row of `sqlite_stat1`: an index's statistics (the table's alone when `idx` is null). */
interface IndexStatistics {
  tbl: string;
  idx: string | null;
  stat: string;
}

/** The documents a batch touched, per table; null outside `exclusive`. */
type Batch = Map<string, Map<string, Pending>> | null;

/** A batch handed to the writer thread: its documents and checkpoints, read from here until the thread has committed them. */
interface HandedBatch {
  batch: Map<string, Map<string, Pending>>;
  checkpoints: Map<string, number>;
  committed: Promise<unknown>;
}

/** What a collection asks of its store. */
interface CollectionHost {
  batch(): Batch;
  writes(): Writes;
  /** The thread reads must be asked of, to see writes it holds uncommitted: a refill's, or the store's while a batch of it commits; else null. */
  writer(): WriterThread | null;
  refilling(): boolean;
  /** A row of the key is written where the table had none. */
  inserted(table: string, key: string): void;
  /** The document as a batch handed to a writer thread left it, until the thread commits it. */
  handedOn(table: string, key: string): Pending | undefined;
  /** Whether the table surely has no row of this key (see LargestKeys; during a refill, none was written since it was emptied). */
  surelyAbsent(table: string, key: string): boolean;
  /** Runs work as a batch of its own (during a refill, a write outside a batch). */
  inBatch<R>(work: () => Promise<R>): Promise<R>;
}

class SqliteCollection<T extends object> implements Collection<T> {
  private readonly getStmt;
  private readonly insertStmt;
  private readonly deleteStmt;
  /** Finds and counts by their text, which follows the filter, the sort and the limit. */
  private readonly prepare;
  /** UPDATE statements by the indexed fields they change: an index whose fields kept their values is not touched. */
  private readonly updates = new Map<string, Database.Statement>();
  private readonly countStmt;
  private readonly indexed: Set<string>;

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
    private readonly host: CollectionHost,
    private readonly counts: Counts | null,
    private readonly name: string,
    /** The fields the declared indexes name, each copied into its own column. */
    private readonly fields: string[],
    private readonly view?: DocumentView<T>,
    /** Set for a collection declared `cached`. */
    private readonly remembered?: RememberedRows<Row>,
    /** Set for a collection with `mostlyAbsent` sets. */
    private readonly storedValues?: StoredValuesFilter,
  ) {
    this.indexed = new Set(fields);
    this.prepare = statementsByText(db, 500);
    const columns = fields.map(fieldColumn);
    this.countStmt = db.prepare<[string, string], { n: number }>('SELECT n FROM counts WHERE collection = ? AND key = ?');
    this.getStmt = db.prepare<[string], { doc: string; pos: number } & Record<string, Bind>>(
      `SELECT ${['doc', 'pos', ...columns].join(', ')} FROM ${table} WHERE id = ?`,
    );
    this.insertStmt = db.prepare(
      `INSERT INTO ${table} (${['id', 'pos', 'doc', 'view', ...columns].join(', ')}) VALUES (${['?', '?', '?', '?', ...columns.map(() => '?')].join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${['pos', 'doc', 'view', ...columns].map((c) => `${c} = excluded.${c}`).join(', ')} WHERE ${table}.pos < excluded.pos`,
    );
    this.deleteStmt = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  }

  /** Documents returned by `get` are shared with the batch: callers build new ones rather than mutate them. */
  async get(id: DocId): Promise<T | null> {
    const key = String(id);
    const pending = this.pending();
    const held = pending?.get(key);
    if (held) return held.doc as T | null;
    // Asked first: every batch handed on has its keys noted, so a key surely absent is in none of
    // them (or absent there too), and its look through them is saved (2 % of a rebuild).
    const surelyAbsent = this.host.surelyAbsent(this.table, key);
    const handed = surelyAbsent ? undefined : this.host.handedOn(this.table, key);
    if (handed) {
      pending?.set(key, copyWith(handed, { dirty: false }));
      return handed.doc as T | null;
    }
    const { doc, pos, columns } = surelyAbsent ? absent : this.stored(key);
    pending?.set(key, { doc, stored: doc, pos, columns, dirty: false });
    return doc as T | null;
  }

  async getMany(ids: DocId[]): Promise<T[]> {
    const docs = await Promise.all([...new Set(ids.map(String))].map((id) => this.get(id)));
    return docs.filter((doc): doc is Awaited<T> => doc !== null);
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<T[]> {
    return (await this.column('doc', filter, options)).map((doc) => JSON.parse(doc) as T);
  }

  /** Every row has its view: they are written with the documents, and made at open for rows stored before. */
  async findViews(filter?: Filter, options: FindOptions = {}): Promise<string[]> {
    if (!this.view) throw noView(this.name);
    return this.column('view', filter, options);
  }

  private expression = (field: string): string => (this.indexed.has(field) ? fieldColumn(field) : path(field));

  /** One column of the rows a filter matches, in order, as plain values rather than row objects. */
  private async column(name: 'doc' | 'view', filter: Filter = {}, options: FindOptions = {}): Promise<string[]> {
    this.flush();
    const { sql, params } = where(filter, this.expression);
    const order = options.sort?.length
      ? `ORDER BY ${options.sort.map(([f, d]) => `${this.expression(f)} ${d === 'desc' ? 'DESC' : 'ASC'}`).join(', ')}`
      : '';
    // SQLite takes an OFFSET only after a LIMIT; -1 is none.
    const limit = options.limit !== undefined ? limitClause(options.limit) : options.skip ? 'LIMIT -1' : '';
    const text = `SELECT ${name} FROM ${this.table} ${sql} ${order} ${limit}${options.skip ? ' OFFSET ?' : ''}`;
    const args = options.skip ? [...params, options.skip] : params;
    const writer = this.host.writer();
    if (writer) return (await writer.query<Record<string, string>>(text, args, true)).map((row) => row[name]);
    return this.prepare(text).pluck().all(...args) as string[];
  }

  async count(filter: Filter = {}): Promise<number> {
    this.flush();
    // The filter holds the values of every write handed on, committed or not; a refill leaves it empty until it ends.
    if (!this.host.refilling() && this.storedValues?.mayMatch(filter) === false) return 0;
    const writer = this.host.writer();
    const key = this.counts?.kept ? this.counts.keyFor(filter) : null;
    if (key) return (writer ? await writer.query<{ n: number }>(this.countStmt.source, [this.name, key], false) : this.countStmt.get(this.name, key))?.n ?? 0;
    const { sql, params } = where(filter, this.expression);
    const text = `SELECT count(*) AS n FROM ${this.table} ${sql}`;
    return ((writer ? await writer.query(text, params, false) : this.prepare(text).get(...params)) as { n: number }).n;
  }

  async upsert(id: DocId, doc: T, position: number): Promise<boolean> {
    const key = String(id);
    const pending = this.pending();
    if (!pending) return this.host.inBatch(() => this.upsert(id, doc, position));
    if (!pending.has(key)) await this.get(key);
    const held = pending.get(key)!;
    if (held.doc !== null && held.pos >= position) return false;
    pending.set(key, copyWith(held, { doc, pos: position, dirty: true }));
    return true;
  }

  async delete(id: DocId): Promise<boolean> {
    const key = String(id);
    const pending = this.pending();
    if (!pending) return this.host.inBatch(() => this.delete(id));
    const existed = (await this.get(key)) !== null;
    pending.set(key, copyWith(pending.get(key)!, { doc: null, pos: 0, dirty: true }));
    return existed;
  }

  /** Writes what the batch changed in this table; the batch keeps the documents for later reads. */
  flush(): void {
    const pending = this.pending();
    if (!pending) return;
    for (const [key, held] of pending) {
      if (!held.dirty) continue;
      const columns = this.write(key, held, held.doc, held.pos);
      if (columns !== false) Object.assign(held, { stored: held.doc, columns });
      held.dirty = false;
    }
    this.counts?.flushMoves();
  }

  /**
   * One document write (null deletes) and, when it took effect, the counts it moves.
   * Answers the row's indexed values as now stored, or false when the write did not apply.
   */
  private write(key: string, before: Stored, after: object | null, position: number): Bind[] | null | false {
    let columns: Bind[] | null = null;
    this.remembered?.forget(this.table, key);
    let applied: boolean;
    const writes = this.host.writes();
    if (after === null) applied = writes.run(this.deleteStmt, [key], before.columns !== null);
    else {
      columns = this.fields.map((field) => columnValue(after, field));
      const text = [JSON.stringify(after), this.view ? JSON.stringify(this.view(after as T)) : null];
      if (before.columns === null) {
        applied = writes.run(this.insertStmt, [key, position, ...text, ...columns], true);
        this.host.inserted(this.table, key);
      } else {
        const changed = this.fields.flatMap((_, i) => (columns![i] === before.columns![i] ? [] : [i]));
        applied = writes.run(this.update(changed), [position, ...text, ...changed.map((i) => columns![i]), key, position], true);
      }
    }
    if (!applied) return false;
    this.counts?.change(before.stored, after);
    this.storedValues?.change(before.columns, columns);
    return columns;
  }

  private update(changed: number[]): Database.Statement {
    const key = changed.join(',');
    let stmt = this.updates.get(key);
    if (!stmt) {
      const set = ['pos', 'doc', 'view', ...changed.map((i) => fieldColumn(this.fields[i]))].map((c) => `${c} = ?`).join(', ');
      stmt = this.db.prepare(`UPDATE ${this.table} SET ${set} WHERE id = ? AND pos < ?`);
      this.updates.set(key, stmt);
    }
    return stmt;
  }

  private stored(key: string): Row {
    if (!this.remembered) return this.read(key);
    let row = this.remembered.get(this.table, key);
    if (!row) this.remembered.remember(this.table, key, (row = this.read(key)));
    return row;
  }

  /** The stored row: its document, position and indexed values. */
  private read(key: string): Row {
    const row = this.getStmt.get(key);
    if (!row) return absent;
    const doc = JSON.parse(row.doc) as object;
    return { doc, stored: doc, pos: row.pos, columns: this.fields.map((field) => row[`doc.${field}`]) };
  }

  private pending(): Map<string, Pending> | undefined {
    const batch = this.host.batch();
    if (!batch) return undefined;
    let pending = batch.get(this.table);
    if (!pending) batch.set(this.table, (pending = new Map()));
    return pending;
  }

}

/**
 * Pages of a new read store. Its rows are about a kilobyte (a call's document and view), four
 * to a 4 KB page against fifteen to a 16 KB one, and a rebuild inserts a million of them into
 * twelve B-trees. Measured by the benchmark in one hour, each run three rounds: rebuild 84,242
 * events/s at 16 KB against 75,706 at 4 KB, lead creation 8,414 against 7,559 req/s, list
 * pages, dialing (2,713 against 2,709 attempts/s) and memory alike. The event store keeps
 * 4 KB: with 16 KB pages it too, each append writing three of them to the log, lead creation
 * fell to 6,953 req/s. The log's checkpoint limit stays 8,000 pages (128 MB here); the
 * checkpointing worker copies the log back every 100 ms, long before it is reached.
 */
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
  private batch: Batch = null;
  private readonly statements;
  private readonly otherWriters: OtherWriters;
  private readonly remembered: RememberedRows<Row>;
  /** The thread that writes the store's batches, started with the first. */
  private live: WriterThread | null = null;
  /** Whether the live writer holds writes not yet committed: reads of the file would not see them. */
  private uncommitted = false;
  /** During a refill, the thread that writes its batches; null otherwise. */
  private refillWriter: WriterThread | null = null;
  private readonly writes: Writes = {
    run: (statement, args, changes) => {
      const writer = this.refillWriter ?? this.live!;
      writer.run({ sql: statement.source, args });
      if (writer === this.live) this.uncommitted = true;
      return changes;
    },
  };
  /** Batches handed to a writer thread and not yet committed by it, oldest first. */
  private handed: HandedBatch[] = [];
  /** The checkpoints the current batch sets. */
  private batchCheckpoints: Map<string, number> | null = null;
  /** Tables the current batch emptied. */
  private cleared = new Set<string>();
  private readonly largestKeys: LargestKeys;
  /** Whether every write handed on is committed: this connection's file then holds them all. */
  private readonly allCommitted = (): boolean => this.refillWriter === null && !this.uncommitted;
  /**
   * During a refill, the integer keys each refilled table has rows of. The tables start empty,
   * so a key not here needs no lookup: a rebuild looks up every document it creates, in a file
   * whose page cache each commit of the writer thread empties (9 % of its main thread).
   */
  private refilledKeys = new Map<string, IntegerKeys>();

  private readonly host: CollectionHost = {
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
    inBatch: async (work) => (await this.exclusive('alone', work)).result,
  };

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
    this.largestKeys = new LargestKeys(this.db, this.otherWriters, this.allCommitted);
    // Statistics let the planner pick the most selective of several indexes.
    this.analyze('PRAGMA optimize = 0x10002');
    // Between batches: during one, its writer thread holds the write lock an analysis may need.
    this.optimizer = setInterval(() => void this.serially(async () => this.db.open && this.analyze('PRAGMA optimize')), 600_000);
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
      this.createTable(table, fields);
      if (!this.columnsOf(table).includes('view')) this.db.exec(`ALTER TABLE ${table} ADD COLUMN view TEXT`);
      const changed = this.keepIndexes(table, indexes, fields);
      // Its rows' columns changed: other stores on the file forget those they keep.
      if (changed) this.otherWriters.countOwnCommit();
      return changed;
    })();
    // New indexes get statistics at once (sampled: a few rows per index), for the planner's choice.
    if (changed) this.analyze(`PRAGMA analysis_limit = 1000; ANALYZE ${table}; PRAGMA analysis_limit = 0`);
    const counts = countedSets.length ? new Counts(this.db, () => this.writes, name, countedSets) : null;
    const storedValues = options.mostlyAbsent?.length
      ? new StoredValuesFilter(options.mostlyAbsent, fields, bind, tableValues(this.db, table, fields.map(fieldColumn)), this.otherWriters, this.allCommitted)
      : undefined;
    this.declared.set(name, { indexes, fields, counts, storedValues });
    this.fillCounts(name, table, countedSets);
    this.keepViews(name, table, view);
    const remembered = options.cached ? this.remembered : undefined;
    const collection = new SqliteCollection<T>(this.db, table, this.host, counts, name, fields, view, remembered, storedValues);
    this.collections.set(name, collection);
    return collection;
  }

  /**
   * Every row of a collection with a view has it: rows stored before the collection had one
   * get theirs made once, a page at a time, and the collection is marked so that later opens
   * do not read the table again. Opened without a view, it loses the mark: rows written then
   * have none.
   */
  private keepViews<T>(name: string, table: string, view?: DocumentView<T>): void {
    if (!view) {
      this.db.prepare('DELETE FROM viewed_collections WHERE collection = ?').run(name);
      return;
    }
    if (this.db.prepare('SELECT 1 FROM viewed_collections WHERE collection = ?').get(name)) return;
    const missing = this.db.prepare<[number], { rowid: number; doc: string }>(`SELECT rowid, doc FROM ${table} WHERE rowid > ? AND view IS NULL ORDER BY rowid LIMIT 1000`);
    const write = this.db.prepare<[string, number]>(`UPDATE ${table} SET view = ? WHERE rowid = ?`);
    for (let after = 0, rows = missing.all(after); rows.length; rows = missing.all(after)) {
      this.db.transaction(() => {
        for (const row of rows) write.run(JSON.stringify(view(JSON.parse(row.doc) as T)), row.rowid);
      })();
      after = rows[rows.length - 1].rowid;
    }
    this.db.prepare('INSERT INTO viewed_collections (collection) VALUES (?) ON CONFLICT DO NOTHING').run(name);
  }

  /**
   * Gathers statistics and keeps those of `sqlite_stat1` only. With the samples SQLite also
   * keeps in `sqlite_stat4`, a statement whose WHERE binds an indexed column is prepared
   * again at every run, its plan depending on the value: a lead's duplicate check took 12 µs
   * with them and 4 µs without, the same plan.
   */
  private analyze(sql: string): void {
    this.db.exec(sql);
    if (this.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat4'").get()) this.db.exec('DELETE FROM sqlite_stat4; ANALYZE sqlite_schema');
  }

  private createTable(table: string, fields: string[]): void {
    const columns = ['id TEXT PRIMARY KEY', 'pos INTEGER NOT NULL', 'doc TEXT NOT NULL', 'view TEXT', ...fields.map(fieldColumn)];
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (${columns.join(', ')})`);
  }

  private columnsOf(table: string): string[] {
    return this.db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all().map((c) => c.name);
  }

  private createIndexes(table: string, indexes: IndexSpec[]): void {
    for (const index of indexes) {
      this.db.exec(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${indexName(table, index)} ON ${table} (${index.fields.map(fieldColumn).join(', ')})`);
    }
  }

  /**
   * Makes the table's indexed columns and indexes those declared now. A store written before
   * gets the columns of newly indexed fields filled from its documents; indexes no longer
   * declared (and the expression indexes over the JSON that columns replaced) are dropped, and
   * so are columns no index names any more, which later writes would leave stale.
   */
  private keepIndexes(table: string, indexes: IndexSpec[], fields: string[]): boolean {
    const declared = new Set(indexes.map((index) => indexName(table, index)));
    const stored = this.db
      .prepare<[string], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
      .all(table);
    const stale = stored.filter((index) => !declared.has(index.name) || index.sql.includes('json_extract('));
    for (const index of stale) this.db.exec(`DROP INDEX ${index.name}`);
    const columns = this.columnsOf(table);
    for (const column of columns) if (column.startsWith('doc.') && !fields.includes(column.slice(4))) this.db.exec(`ALTER TABLE ${table} DROP COLUMN "${column}"`);
    const missing = fields.filter((field) => !columns.includes(`doc.${field}`));
    for (const field of missing) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${fieldColumn(field)}`);
    if (missing.length) this.db.exec(`UPDATE ${table} SET ${missing.map((field) => `${fieldColumn(field)} = ${path(field)}`).join(', ')}`);
    this.createIndexes(table, indexes);
    return missing.length > 0 || stale.length > 0;
  }

  /**
   * Refilling drops each table and makes it again with its indexes (a DELETE of a million
   * rows costs as much as writing them), and keeps the totals in memory until the work is
   * done. Building the indexes after the work instead was measured slower: each build
   * reads every document again.
   *
   * The work's writes go to a writer thread with a connection of its own (`WriterThread`), so
   * that SQLite writes one batch while this thread decodes and projects the next: `exclusive`
   * hands each batch on and answers at once, up to two batches ahead of the thread; until the
   * thread has committed a batch, its documents and checkpoints are read from it here, and
   * counts and finds are asked of the thread. The writer does not sync: the file is marked
   * unsynced first (`UnsyncedMark`), so a rebuild that does not finish leaves it to be made
   * again from nothing at the next open, and synced at the end.
   */
  async refill<R>(names: string[], work: () => Promise<R>): Promise<R> {
    const refilled = names.map((name) => ({ name, table: tableName(name), declared: this.declared.get(name) }));
    // Begun and ended between two batches: during one, its writer thread holds the write lock.
    const { mark, statistics, writer } = await this.serially(async () => {
      const mark = UnsyncedMark.take(this.file);
      try {
        const statistics = this.statisticsOf(refilled.map((r) => r.table));
        this.db.transaction(() => {
          for (const { name, table, declared } of refilled) {
            this.remembered.forgetTable(table);
            // Left empty until the refill ends: counts meanwhile are asked of the writer thread.
            declared?.storedValues?.reset();
            this.largestKeys.forget(table);
            this.db.exec(`DROP TABLE IF EXISTS ${table}`);
            this.createTable(table, declared?.fields ?? []);
            this.createIndexes(table, declared?.indexes ?? []);
            this.db.prepare('DELETE FROM counts WHERE collection = ?').run(name);
            this.db.prepare('DELETE FROM counted_sets WHERE collection = ?').run(name);
            declared?.counts?.startTally();
          }
          this.otherWriters.countOwnCommit();
        })();
        const writer = new WriterThread(this.file);
        this.refillWriter = writer;
        this.refilledKeys = new Map(refilled.map(({ table }) => [table, new IntegerKeys()]));
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
        this.refillWriter = null;
        await writer.close().catch((error: unknown) => failures.push(error));
        this.handed = [];
        this.refilledKeys = new Map();
        // Totals kept of batches the writer could not commit would be wrong: the collection stays
        // uncounted then, and is counted from its documents (here by SQL, at the next open by `fillCounts`).
        if (!writer.failure) this.db.transaction(() => this.endTallies(refilled))();
        if (!failures.length) this.keepStatistics(statistics);
      });
      if (failures.length) throw failures[0];
      return result as R;
    } finally {
      mark.release();
    }
  }

  private endTallies(refilled: Array<{ name: string; declared?: { counts: Counts | null } }>): void {
    for (const { name, declared } of refilled) {
      if (!declared?.counts) continue;
      declared.counts.endTally();
      this.markCounted(name, declared.counts.sets);
    }
  }

  /** The planner's statistics of these tables' indexes (dropping a table drops them). */
  private statisticsOf(tables: string[]): IndexStatistics[] {
    if (!this.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()) return [];
    const rows = this.db.prepare<[string], IndexStatistics>('SELECT tbl, idx, stat FROM sqlite_stat1 WHERE tbl = ?');
    return tables.flatMap((table) => rows.all(table));
  }

  /**
   * Gives refilled tables back the statistics they had, for the next open (a rebuild's process
   * ends with it), when they hold about as many rows as then: a rebuild of the same events makes
   * the same rows. Without them that open gathers them again over every index, 2.5–10 s for the
   * million calls measured here. A table that grew or shrank by more than a tenth is left for
   * that open to measure.
   */
  private keepStatistics(statistics: IndexStatistics[]): void {
    const rows = new Map<string, number>();
    const rowsOf = (table: string) => rows.get(table) ?? rows.set(table, this.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number).get(table)!;
    const kept = statistics.filter(({ tbl, stat }) => {
      const before = Number(stat.split(' ')[0]);
      return Math.abs(rowsOf(tbl) - before) <= before / 10;
    });
    if (!kept.length) return;
    const insert = this.db.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
    this.db.transaction(() => kept.forEach(({ tbl, idx, stat }) => insert.run(tbl, idx, stat)))();
  }

  /** Counts declared anew (or differently) are filled once from the documents already stored. */
  private fillCounts(name: string, table: string, sets: string[][]): void {
    const declared = JSON.stringify(sets);
    const row = this.db.prepare<[string], { sets: string }>('SELECT sets FROM counted_sets WHERE collection = ?').get(name);
    if (row?.sets === declared) return;
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM counts WHERE collection = ?').run(name);
      for (const fields of sets) {
        const key = Counts.keySql(fields);
        this.db.prepare(`INSERT INTO counts (collection, key, n) SELECT ?, ${key}, count(*) FROM ${table} GROUP BY ${key}`).run(name);
      }
      this.markCounted(name, sets);
    })();
  }

  /** Records which field sets the collection's totals hold, written with those totals. */
  private markCounted(name: string, sets: string[][]): void {
    this.db.prepare('INSERT INTO counted_sets (collection, sets) VALUES (?, ?) ON CONFLICT (collection) DO UPDATE SET sets = excluded.sets').run(name, JSON.stringify(sets));
  }

  async getCheckpoint(name: string): Promise<number> {
    let position = this.batchCheckpoints?.get(name);
    for (let i = this.handed.length - 1; position === undefined && i >= 0; i--) position = this.handed[i].checkpoints.get(name);
    return position ?? this.statements.getCheckpoint.get(name)?.position ?? 0;
  }

  async setCheckpoint(name: string, position: number): Promise<void> {
    if (!this.batchCheckpoints) return this.host.inBatch(() => this.setCheckpoint(name, position));
    this.writes.run(this.statements.setCheckpoint, [name, position], true);
    this.batchCheckpoints.set(name, position);
  }

  /**
   * One write transaction at a time per process (a promise queue), and per file (SQLite's
   * lock). Documents the work touches are held in memory and each written once at the end,
   * so a batch of events that changes one document many times writes it once; the running
   * totals it moves are summed and each written once too.
   */
  exclusive<R>(_lock: string, work: () => Promise<R>): Promise<{ ran: true; result: R }> {
    return this.serially(() => (this.refillWriter ? this.handOn(this.refillWriter, work) : this.writeBatch(work)));
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
      if (this.live?.failure) this.dropLive();
      const writer = (this.live ??= new WriterThread(this.file, { synced: true }));
      this.otherWriters.look();
      const expected = this.otherWriters.seenCount;
      const { result, batch, checkpoints } = await this.makeBatch(writer, work);
      const handed: HandedBatch = { batch, checkpoints, committed: Promise.resolve() };
      this.handed.push(handed);
      this.otherWriters.commitStarts();
      let outcome: GuardedCommit | null;
      try {
        outcome = await writer.commit({ read: READ_COMMIT_COUNT, expected, count: COUNT_COMMIT });
      } catch (error) {
        this.otherWriters.commitFailed();
        this.batchEnds(false);
        this.dropLive();
        throw error;
      } finally {
        this.uncommitted = false;
        this.handed.splice(this.handed.indexOf(handed), 1);
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
    const batch: Map<string, Map<string, Pending>> = (this.batch = new Map());
    const checkpoints = (this.batchCheckpoints = new Map<string, number>());
    for (const { counts } of this.declared.values()) counts?.batchStarts();
    try {
      const result = await work();
      for (const collection of this.collections.values()) collection.flush();
      return { result, batch, checkpoints };
    } catch (error) {
      writer.rollback();
      this.uncommitted = false;
      this.batchEnds(false);
      throw error;
    } finally {
      // Writes that come while the batch commits make batches of their own.
      this.batch = null;
      this.batchCheckpoints = null;
    }
  }

  private batchEnds(committed: boolean): void {
    for (const { counts } of this.declared.values()) counts?.batchEnds(committed);
    // Rows read here while the batch emptied their table may have been kept.
    for (const table of this.cleared) this.remembered.forgetTable(table);
    this.cleared.clear();
  }

  /** A writer thread that failed writes nothing more: the next batch starts another. */
  private dropLive(): void {
    void this.live?.close().catch(() => undefined);
    this.live = null;
  }

  /**
   * A batch of a refill: its writes handed to the writer thread, to commit in one transaction
   * while the next batch is made here. At most two batches wait for the thread.
   */
  private async handOn<R>(writer: WriterThread, work: () => Promise<R>): Promise<{ ran: true; result: R }> {
    // A writer that failed has ended the refill: it goes no further.
    if (writer.failure) throw writer.failure;
    const { result, batch, checkpoints } = await this.makeBatch(writer, work);
    this.keepKeys(batch);
    // Other stores on the file learn of the refill's commits by the count.
    writer.run({ sql: COUNT_COMMIT, args: [] });
    // A failure is the writer's: the next batch and `close` answer it.
    const committed = writer.commit().catch(() => undefined);
    const handed: HandedBatch = { batch, checkpoints, committed };
    this.handed.push(handed);
    void committed.then(() => {
      const at = this.handed.indexOf(handed);
      if (at >= 0) this.handed.splice(at, 1);
    });
    this.batchEnds(true);
    while (this.handed.length > 2) await this.handed[0].committed;
    return { ran: true as const, result };
  }

  /** Notes which rows of the refilled tables a batch made or deleted. */
  private keepKeys(batch: Map<string, Map<string, Pending>>): void {
    for (const [table, docs] of batch) {
      const keys = this.refilledKeys.get(table);
      if (!keys) continue;
      for (const [key, held] of docs) {
        const n = IntegerKeys.of(key);
        if (n !== null) keys.set(n, held.columns !== null);
      }
    }
  }

  async clearCollection(name: string): Promise<void> {
    if (this.refillWriter) throw new Error(`Collection ${name} cannot be cleared while the store is refilled`);
    if (!this.batch) return this.host.inBatch(() => this.clearCollection(name));
    const table = tableName(name);
    this.batch.delete(table);
    this.cleared.add(table);
    this.remembered.forgetTable(table);
    this.declared.get(name)?.storedValues?.reset();
    const exists = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
    if (exists) this.writes.run(this.db.prepare(`DELETE FROM ${table}`), [], true);
    this.writes.run(this.db.prepare('DELETE FROM counts WHERE collection = ?'), [name], true);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    clearInterval(this.optimizer);
    await this.queue;
    await this.live?.close();
    this.live = null;
    if (this.db.open) this.db.close();
  }
}
