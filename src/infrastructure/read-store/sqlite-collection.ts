import Database from 'better-sqlite3';
import { copyWith } from '../../shared/copy-with';
import { limitClause } from '../sqlite/limit-clause';
import { statementsByText } from '../sqlite/statements-by-text';
import { Collection, DocId, DocumentView, Filter, FindOptions, noView } from './document-store.port';
import { RememberedRows } from './remembered-rows';
import { Counts } from './running-counts';
import { CollectionHost, Pending, Row, Stored, absent } from './sqlite-rows';
import { Bind, columnValue, fieldColumn, path, where } from './sqlite-sql';
import { StoredValuesFilter } from './stored-values-filter';

export class SqliteCollection<T extends object> implements Collection<T> {
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
