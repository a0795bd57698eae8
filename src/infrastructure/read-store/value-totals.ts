/** One combination of a counted field set's values and the sum of what was added for it. */
export interface Total {
  values: unknown[];
  n: number;
}

type Level = Map<unknown, Level | Total>;

/**
 * Sums per combination of values, kept as nested maps of the values themselves: adding makes
 * no key text, so a rebuild that moves eight totals per document written builds none per move
 * (making a key per move was a fifth of a rebuild's work outside SQLite). Values are grouped
 * as the stored key text groups them in the cases documents hold: `undefined` with `null`,
 * objects by their JSON. Two combinations kept apart here that share a key text (`NaN` and
 * `null`, say) are each added to that key's total when written, so the totals still sum right.
 */
export class ValueTotals {
  private readonly root: Level = new Map();
  /** Objects are grouped by their JSON: each JSON text stands for one key object. */
  private readonly objectKeys = new Map<string, object>();

  add(values: unknown[], n: number): void {
    let level = this.root;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      const key = this.keyOf(values[i]);
      let next = level.get(key) as Level | undefined;
      if (!next) level.set(key, (next = new Map()));
      level = next;
    }
    const key = this.keyOf(values[last]);
    const total = level.get(key) as Total | undefined;
    if (total) total.n += n;
    else level.set(key, { values, n });
  }

  /** Adds every total of `other` to these. */
  addAll(other: ValueTotals): void {
    for (const { values, n } of other.totals()) this.add(values, n);
  }

  /** Every combination added, with its sum (which may be 0 when moves cancelled out). */
  totals(): Generator<Total> {
    return totalsBelow(this.root);
  }

  private keyOf(value: unknown): unknown {
    if (value === undefined) return null;
    if (value === null || typeof value !== 'object') return value;
    const json = JSON.stringify(value);
    let key = this.objectKeys.get(json);
    if (!key) this.objectKeys.set(json, (key = {}));
    return key;
  }
}

function* totalsBelow(level: Level): Generator<Total> {
  for (const entry of level.values()) {
    if (entry instanceof Map) yield* totalsBelow(entry);
    else yield entry;
  }
}
