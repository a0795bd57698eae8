import Database from 'better-sqlite3';
import { limitClause } from '../sqlite/limit-clause';
import { Snapshot } from '../../shared/ports/document-store.port';
import { Bind, path } from './sqlite-sql';

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

  async keysOf(field: string): Promise<string[]> {
    const rows = this.db
      .prepare(`SELECT DISTINCT j.key FROM ${this.table}, json_each(${path(field)}) AS j ${this.clause.sql} ORDER BY 1`)
      .pluck()
      .all(...this.clause.params) as string[];
    return rows;
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
      rows = next.all(...this.clause.params, docs[docs.length - 1].id) as string[];
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
