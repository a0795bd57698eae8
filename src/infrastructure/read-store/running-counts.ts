import Database from 'better-sqlite3';
import { Filter } from './document-store.port';
import { assertFieldName, equalityFieldNames } from './filter-fields';
import { Writes, onThisConnection } from './sqlite-rows';
import { valueAt } from './sqlite-sql';
import { ValueTotals } from './value-totals';

/**
 * Running totals of documents per value of a counted field set. A key is the field names
 * and the values as JSON, written alike from JS and (for a first fill) from SQL.
 */
export class Counts {
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
