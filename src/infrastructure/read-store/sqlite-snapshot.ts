import Database from 'better-sqlite3';
import { limitClause } from '../sqlite/limit-clause';
import { Snapshot } from '../../shared/ports/document-store.port';
import { Bind, path } from './sqlite-sql';
import { yieldToIo } from '../../shared/yield-to-io';

/** SQLite's BINARY order of text, the UTF-8 bytes' (JavaScript's own compares UTF-16 units, which differs past U+FFFF). */
const inUtf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * One moment of a SQLite read-store table, held by a read transaction on a connection of its
 * own (WAL readers see the file as it was when they began, whatever is written meanwhile), and
 * read a page at a time, newest id first, so a slow reader holds one page in memory.
 */
export class SqliteSnapshot<T> implements Snapshot<T> {
  private readonly db: Database.Database;
  private closed = false;

  constructor(
    file: string,
    private readonly table: string,
    private readonly clause: { sql: string; params: Bind[] },
    private readonly idColumn: string,
  ) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('BEGIN');
    // A deferred transaction takes its snapshot at its first read.
    this.db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get();
  }

  /** Read a slice of ids at a time, as `pages`: one statement over a million documents would hold every request for seconds. */
  async keysOf(field: string, sliceSize = 5000): Promise<string[]> {
    const id = this.idColumn;
    const within = (below: boolean) => (below ? `${this.clause.sql ? `${this.clause.sql} AND` : 'WHERE'} ${id} < ?` : this.clause.sql);
    // The id `sliceSize` rows down (none: the slice is the rest), then the keys of the slice's documents.
    const boundary = (below: boolean) =>
      this.db.prepare(`SELECT ${id} FROM ${this.table} ${within(below)} ORDER BY ${id} DESC LIMIT 1 OFFSET ${sliceSize - 1}`).pluck();
    const keysIn = (below: boolean) =>
      this.db.prepare(`SELECT DISTINCT j.key FROM ${this.table}, json_each(${path(field)}) AS j ${within(below) || 'WHERE 1'} AND ${id} >= ?`).pluck();
    const [firstBoundary, nextBoundary, firstKeys, nextKeys] = [boundary(false), boundary(true), keysIn(false), keysIn(true)];
    const keys = new Set<string>();
    for (let upTo: unknown = undefined; !this.closed; await yieldToIo()) {
      const below = upTo === undefined ? [] : [upTo];
      const from = (upTo === undefined ? firstBoundary : nextBoundary).get(...this.clause.params, ...below) as unknown;
      // Below every id, number or text (SQLite orders numbers before text).
      const lowest = from ?? Number.MIN_SAFE_INTEGER;
      for (const key of (upTo === undefined ? firstKeys : nextKeys).all(...this.clause.params, ...below, lowest) as string[]) keys.add(key);
      if (from === undefined) break;
      upTo = from;
    }
    return [...keys].sort(inUtf8Order);
  }

  async *pages(pageSize = 1000): AsyncIterable<T[]> {
    const filtered = this.clause.sql ? `${this.clause.sql} AND` : 'WHERE';
    const first = this.db.prepare(`SELECT doc FROM ${this.table} ${this.clause.sql} ORDER BY ${this.idColumn} DESC ${limitClause(pageSize)}`).pluck();
    const next = this.db
      .prepare(`SELECT doc FROM ${this.table} ${filtered} ${this.idColumn} < ? ORDER BY ${this.idColumn} DESC ${limitClause(pageSize)}`)
      .pluck();
    let rows = first.all(...this.clause.params) as string[];
    while (rows.length > 0 && !this.closed) {
      const docs = rows.map((row) => JSON.parse(row) as T & { id: number });
      yield docs;
      if (rows.length < pageSize) return;
      // The reads are synchronous: a reader going through a large table lets requests in between pages.
      await yieldToIo();
      rows = next.all(...this.clause.params, docs[docs.length - 1].id) as string[];
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
