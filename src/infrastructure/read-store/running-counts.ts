import Database from 'better-sqlite3';
import { prepared } from '../sqlite/prepared';
import { Filter, Scalar } from '../../shared/ports/document-store.port';
import { Writes } from './sqlite-batch';
import { equalityFieldNames } from '../../shared/ports/filter-fields';
import { Bind, bind, columnValue } from './sqlite-sql';

/**
 * A total's key: the field names, then the values a filter compares (an indexed field's column,
 * else what `json_extract` answers: true is 1, an object its JSON), so a total counts what a
 * count over the table would.
 */
const keyOf = (fields: string[], values: Bind[]): string => `${fields.join(',')}|${JSON.stringify(values)}`;

/**
 * Running totals of a collection's documents per value of the equality filters its slow counts
 * were asked with: a list's total then costs one row, however many documents it counts. A set
 * of fields is learned the first time a count over it takes long (`slowMs`); its totals are
 * filled from the table then, and every write after moves them. The sets are read from the
 * file each time, so every connection writing the file keeps the same ones.
 */
export class RunningCounts {
  constructor(
    private readonly db: () => Database.Database,
    private readonly collection: string,
    private readonly table: string,
    private readonly slowMs: number,
    /** A field as a filter compares it: its column when indexed, else its JSON value. */
    private readonly expression: (field: string) => string,
  ) {}

  // The tables before these keyed totals by the documents' JSON values and were filled by
  // reading every document's JSON (seconds of a blocked process over a million): they go, and
  // their totals are learned again.
  static schema = `
    DROP TABLE IF EXISTS counts;
    DROP TABLE IF EXISTS counted_sets;
    CREATE TABLE IF NOT EXISTS running_counts (collection TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (collection, key)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS running_count_sets (collection TEXT PRIMARY KEY, sets TEXT NOT NULL);
  `;

  /** The kept total of an equality filter, or null when its fields have none. */
  kept(filter: Filter): number | null {
    const fields = this.setOf(filter);
    if (!fields) return null;
    const key = keyOf(
      fields,
      fields.map((f) => bind(filter[f] as Scalar)),
    );
    // The sets and the total in one read, of one commit: each read of the file begins a
    // transaction of its own, and a list's total is asked with every page.
    const [sets, n] = prepared(
      this.db(),
      'SELECT (SELECT sets FROM running_count_sets WHERE collection = ?), (SELECT n FROM running_counts WHERE collection = ? AND key = ?)',
    )
      .raw()
      .get(this.collection, this.collection, key) as [string | null, number | null];
    if (!sets || !(JSON.parse(sets) as string[][]).some((set) => set.join(',') === fields.join(','))) return null;
    return n ?? 0;
  }

  /** After a count made by reading the documents: from a slow one on, its fields' totals are kept. */
  learn(filter: Filter, tookMs: number): void {
    const fields = this.setOf(filter);
    if (!fields || tookMs < this.slowMs) return;
    const db = this.db();
    db.transaction(() => {
      const sets = this.sets();
      if (sets.some((set) => set.join(',') === fields.join(','))) return;
      // Grouped on the fields' columns (an index holding them is read instead of the table).
      const values = fields.map(this.expression);
      const groups = db
        .prepare(`SELECT ${values.join(', ')}, count(*) FROM ${this.table} GROUP BY ${values.map((_, i) => i + 1).join(', ')}`)
        .raw()
        .all() as Bind[][];
      const insert = db.prepare('INSERT INTO running_counts (collection, key, n) VALUES (?, ?, ?)');
      for (const group of groups) insert.run(this.collection, keyOf(fields, group.slice(0, -1)), group[group.length - 1]);
      db.prepare('INSERT INTO running_count_sets (collection, sets) VALUES (?, ?) ON CONFLICT (collection) DO UPDATE SET sets = excluded.sets').run(
        this.collection,
        JSON.stringify([...sets, fields]),
      );
    }).immediate();
  }

  /** Moves the totals from each document as stored to the document written; inside the write's transaction. */
  move(changes: Array<{ before: object | null; after: object | null }>, writes: Writes): void {
    const sets = this.sets();
    if (!sets.length || !changes.length) return;
    const moves = new Map<string, number>();
    const add = (fields: string[], doc: object, n: number) => {
      const key = keyOf(
        fields,
        fields.map((f) => columnValue(doc, f)),
      );
      moves.set(key, (moves.get(key) ?? 0) + n);
    };
    for (const { before, after } of changes) {
      for (const fields of sets) {
        if (before) add(fields, before, -1);
        if (after) add(fields, after, 1);
      }
    }
    const bump = 'INSERT INTO running_counts (collection, key, n) VALUES (?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET n = n + excluded.n';
    for (const [key, n] of moves) if (n !== 0) writes(bump, [this.collection, key, n]);
  }

  /** The collection was emptied: every total is 0. */
  cleared(writes: Writes): void {
    writes('DELETE FROM running_counts WHERE collection = ?', [this.collection]);
  }

  private sets(): string[][] {
    const sets = prepared(this.db(), 'SELECT sets FROM running_count_sets WHERE collection = ?').pluck().get(this.collection) as string | undefined;
    return sets ? (JSON.parse(sets) as string[][]) : [];
  }

  /** The sorted fields of a filter of equalities only, or null. */
  private setOf(filter: Filter): string[] | null {
    const names = equalityFieldNames(filter);
    return names ? names.split(',') : null;
  }
}
