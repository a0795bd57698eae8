import Database from 'better-sqlite3';
import { BloomFilter } from 'bloomfilter';
import { limitClause } from '../sqlite/limit-clause';
import { Filter, Scalar } from './document-store.port';
import { equalityFieldNames } from './filter-fields';

type Bind = string | number | null;

/** Where a filter reads the values already stored: the table's rows in rowid order. */
export interface StoredValuesSource {
  /** At least as many as the rows stored (the largest rowid), to size a filter for them. */
  rowsAtMost(): number;
  /** Up to `limit` rows after `rowid`, each as its rowid then its values of the columns at `places`. */
  rowsAfter(rowid: number, places: number[], limit: number): Bind[][];
}

/** What tells a filter that another writer committed to the file (see OtherWriters). */
export interface CommitsElsewhere {
  onCommit(listener: () => void): void;
  lookIfDue(): void;
}

/** About 1 % false positives while a filter holds at most its capacity of values. */
const BITS_PER_VALUE = 10;
const HASHES = 7;
/** Values a filter is sized for at least: 80 KB. */
export const SMALLEST_CAPACITY = 65_536;
/** Rows read per turn of the event loop while a filter is filled from the table. */
export const LOAD_CHUNK = 5_000;

interface FieldSet {
  /** The set's fields as places in the collection's indexed columns. */
  places: number[];
  /** Its field names, sorted and joined: how a filter naming them in any order finds it. */
  names: string;
  fields: string[];
  bloom: BloomFilter | null;
  capacity: number;
  added: number;
  ready: boolean;
  /** Raised whenever the filter is dropped: a fill under way for an older one stops. */
  generation: number;
}

const keyOf = (values: Bind[]) => JSON.stringify(values);

/**
 * For the equality filters a collection declares `mostlyAbsent` (a lead's number in its
 * campaign, counted to refuse duplicates), a Bloom filter of the values each stored row holds
 * under them, so a count of values no row holds answers 0 without reading the file: that
 * count was a read transaction of its own, about a tenth of the main thread's time on each
 * lead created. A filter may answer "maybe" for values never stored (then the file is read as
 * before); it never answers "none" for values some row holds:
 * - it is filled from the table once, a chunk of rows a turn, and answers nothing until full;
 *   every write of the store meanwhile and after adds the values it stores, from when it is
 *   handed to the writer thread (the fill starts only while the table holds every write);
 * - values a row leaves stay in it, so it is made again from the table once it holds more
 *   values than it was sized for;
 * - it is dropped when another writer commits to the file (a refill's writer thread, the
 *   CLI, another process), seen as late as the parsed rows of cached collections are, and
 *   when its collection is emptied or refilled.
 */
export class StoredValuesFilter {
  private readonly sets: FieldSet[];
  private readonly setsByNames: Map<string, FieldSet>;

  constructor(
    /** Each set's fields, and every indexed field of the collection in the order of its columns. */
    sets: string[][],
    columns: string[],
    private readonly toColumn: (value: Scalar) => Bind,
    private readonly source: StoredValuesSource,
    private readonly commits: CommitsElsewhere,
    /**
     * Whether the table holds every write the filter would be told of: a fill started while
     * some are on their way to the file would miss those.
     */
    private readonly mayFill: () => boolean = () => true,
    private readonly schedule: (step: () => void) => void = (step) => setImmediate(step),
  ) {
    this.sets = sets.map((fields) => {
      const places = fields.map((field) => columns.indexOf(field));
      if (places.includes(-1)) throw new Error(`The fields of a mostly absent set must be indexed: ${fields.join(', ')}`);
      return { places, fields, names: [...fields].sort().join(','), bloom: null, capacity: 0, added: 0, ready: false, generation: 0 };
    });
    this.setsByNames = new Map(this.sets.map((set) => [set.names, set]));
    commits.onCommit(() => this.reset());
  }

  /** False when no stored row holds the values of an equality filter over a declared set; null when the filter cannot tell. */
  mayMatch(filter: Filter): boolean | null {
    const names = equalityFieldNames(filter);
    const set = names === null ? undefined : this.setsByNames.get(names);
    if (!set) return null;
    this.commits.lookIfDue();
    if (!set.bloom) {
      if (!this.mayFill()) return null;
      this.fill(set);
    }
    if (!set.ready) return null;
    return set.bloom!.test(keyOf(set.fields.map((field) => this.toColumn(filter[field] as Scalar))));
  }

  /** A row's indexed columns before and after a write (null: no row). */
  change(before: Bind[] | null, after: Bind[] | null): void {
    if (!after) return;
    for (const set of this.sets) {
      if (!set.bloom) continue;
      // Most writes leave the set's values as they were: the filter has them already.
      if (before && set.places.every((i) => before[i] === after[i])) continue;
      this.add(set, set.places.map((i) => after[i]));
    }
  }

  /** Drops every filter; each is made again from the table when next asked. */
  reset(): void {
    for (const set of this.sets) this.drop(set);
  }

  private add(set: FieldSet, values: Bind[]): void {
    set.bloom!.add(keyOf(values));
    if (++set.added > set.capacity) this.drop(set);
  }

  private drop(set: FieldSet): void {
    set.generation++;
    set.bloom = null;
    set.ready = false;
  }

  /** Starts filling a filter from the table: the first chunk now (a small table is done at once), the rest a chunk a turn. */
  private fill(set: FieldSet): void {
    const generation = ++set.generation;
    set.capacity = Math.max(SMALLEST_CAPACITY, 2 * this.source.rowsAtMost());
    set.bloom = new BloomFilter(set.capacity * BITS_PER_VALUE, HASHES);
    set.added = 0;
    let rowid = Number.MIN_SAFE_INTEGER;
    const step = () => {
      if (set.generation !== generation) return;
      let rows: Bind[][];
      try {
        rows = this.source.rowsAfter(rowid, set.places, LOAD_CHUNK);
      } catch {
        // The file closed or failed: counts read it, as without a filter.
        return this.drop(set);
      }
      for (const [id, ...values] of rows) {
        rowid = id as number;
        this.add(set, values);
        if (set.generation !== generation) return;
      }
      if (rows.length < LOAD_CHUNK) set.ready = true;
      else this.schedule(step);
    };
    step();
  }
}

/** A read store table as the source of its filter's values; `columns` are the SQL names of its indexed columns. */
export function tableValues(db: Database.Database, table: string, columns: string[]): StoredValuesSource {
  const statements = new Map<string, Database.Statement>();
  const largestRowid = db.prepare<[], number | null>(`SELECT max(rowid) FROM ${table}`).pluck();
  return {
    rowsAtMost: () => largestRowid.get() ?? 0,
    rowsAfter: (rowid, places, limit) => {
      const key = `${places.join(',')}/${limit}`;
      let statement = statements.get(key);
      if (!statement) {
        const selected = ['rowid', ...places.map((i) => columns[i])].join(', ');
        statement = db.prepare(`SELECT ${selected} FROM ${table} WHERE rowid > ? ORDER BY rowid ${limitClause(limit)}`).raw();
        statements.set(key, statement);
      }
      return statement.all(rowid) as Bind[][];
    },
  };
}
