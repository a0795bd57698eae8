import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { limitClause } from '../sqlite/limit-clause';
import { prepared } from '../sqlite/prepared';
import { dataVersion, freshDataVersion } from '../sqlite/data-version';
import { Bind } from './sqlite-sql';

/** The lists asked for whose anchors are kept, and how many anchors each. */
const LISTS = 256;
const ANCHORS = 32;

/** A list: columns of the rows a WHERE clause matches, ordered by one key expression. */
export interface SortedList {
  columns: string;
  where: { sql: string; params: Bind[] };
  key: string;
  descending: boolean;
}

/** The list's columns, then its key. */
type Row = Bind[];
type Anchor = [offset: number, key: Bind];

/**
 * Where deep pages of a list start, remembered while the table is unchanged. SQLite finds the
 * rows of page 500 by walking past the 49,900 before them (`OFFSET`), about 3 ms a request; a
 * list walked page by page walks its start again for every page. An anchor is a row's offset in
 * a list and its sort key: a later page of the same list seeks to that key through the index and
 * walks only from there. Anchors are kept only for rows whose key differs from the row before
 * them (so seeking to the key lands on that row), and forgotten whenever the table may have
 * changed: this store wrote it, another connection committed to the file, or the file is another.
 */
export class SqlitePageAnchors {
  private readonly lists = new LRUCache<string, Map<number, Bind>>({ max: LISTS });
  private db: Database.Database | null = null;
  private version = -1;
  private writes = 0;
  private seenWrites = 0;

  constructor(
    private readonly table: string,
    private readonly connection: () => Database.Database,
  ) {}

  /** This store wrote the table: every row may have moved. */
  changed(): void {
    this.writes++;
  }

  /** The rows `skip` to `skip + limit` of the list, as `LIMIT limit OFFSET skip` answers them. */
  page(list: SortedList, skip: number, limit: number): Bind[][] {
    const db = this.connection();
    const version = this.checked(db);
    const name = `${list.columns}\u0000${list.where.sql}\u0000${JSON.stringify(list.where.params)}\u0000${list.key}\u0000${list.descending}`;
    const anchor = nearestAtOrBefore(this.lists.get(name), skip - 1);
    // The two rows before the page are read too: the second anchors the same page asked again.
    const start = Math.max(anchor?.[0] ?? 0, skip - 2);
    const count = limit + skip - start;
    let rows = anchor && this.read(db, list, start, count, anchor);
    // The check and the read are two statements: another connection's commit between them leaves the anchor stale.
    if (rows && this.checked(db, freshDataVersion(db)) !== version) rows = undefined;
    rows ??= this.read(db, list, start, count)!;
    this.learn(name, rows, start, [skip - 1, skip + limit - 1]);
    return rows.slice(skip - start).map((row) => row.slice(0, -1));
  }

  /**
   * `limit` rows from the offset `start`, sought from an anchor when there is one. Descending,
   * rows without a key come after every key the seek reaches: a read that may reach them is
   * made again without the anchor (undefined here).
   */
  private read(db: Database.Database, list: SortedList, start: number, limit: number, anchor?: Anchor): Row[] | undefined {
    const { columns, where, key, descending } = list;
    const seek = anchor ? `${key} ${descending ? '<=' : '>='} ?` : '';
    const condition = !seek ? where.sql : where.sql ? `${where.sql} AND ${seek}` : `WHERE ${seek}`;
    const text = `SELECT ${columns}, ${key} FROM ${this.table} ${condition} ORDER BY ${key} ${descending ? 'DESC' : 'ASC'} ${limitClause(limit)} OFFSET ?`;
    const args = anchor ? [...where.params, anchor[1], start - anchor[0]] : [...where.params, start];
    const rows = prepared(db, text)
      .raw()
      .all(...args) as Row[];
    return anchor && descending && rows.length < limit ? undefined : rows;
  }

  /** Keeps the rows at `offsets` (of those read from `start`) as anchors of the list. */
  private learn(name: string, rows: Row[], start: number, offsets: number[]): void {
    let anchors = this.lists.get(name);
    for (const offset of offsets) {
      const i = offset - start;
      if (i < 1 || i >= rows.length || anchors?.has(offset)) continue;
      const key = rows[i].at(-1)!;
      if (key === null || key === rows[i - 1].at(-1)) continue;
      if (!anchors) this.lists.set(name, (anchors = new Map()));
      if (anchors.size >= ANCHORS) anchors.delete(anchors.keys().next().value!);
      anchors.set(offset, key);
    }
  }

  /** The file's commit counter, every anchor forgotten when the table may have changed since the last check. */
  private checked(db: Database.Database, version = dataVersion(db)): number {
    if (db === this.db && version === this.version && this.writes === this.seenWrites) return version;
    this.lists.clear();
    this.db = db;
    this.version = version;
    this.seenWrites = this.writes;
    return version;
  }
}

/** The anchor at the highest offset not past `offset`. */
function nearestAtOrBefore(anchors: Map<number, Bind> | undefined, offset: number): Anchor | undefined {
  let best: Anchor | undefined;
  for (const [at, key] of anchors ?? []) if (at <= offset && (!best || at > best[0])) best = [at, key];
  return best;
}
