/**
 * Flat counters: a figure per key (`calls`, `status:completed`, `outcome:booked=yes`…). What a
 * document contributes is a pure function of it; a change applies the difference of the two.
 */
export type Counts = Record<string, number>;

/** Sums are rounded to this many decimals, so adding then removing a cost leaves exactly nothing. */
const DECIMALS = 1e6;

/** `after - before`, keys with no difference left out. */
export function difference(before: Counts, after: Counts): Counts {
  const out: Counts = {};
  // `for…in`, not `Object.entries`: counts move at every call event, and the pairs would be garbage.
  for (const key in after) {
    const change = Math.round((after[key] - (before[key] ?? 0)) * DECIMALS) / DECIMALS;
    if (change !== 0) out[key] = change;
  }
  for (const key in before) if (!(key in after) && before[key] !== 0) out[key] = -before[key];
  return out;
}

/**
 * `counts + change`, keys that fall to zero removed. `admit` may refuse a key not yet counted
 * (a cap on distinct values): refused, it is neither added nor, later, taken from.
 */
export function applied(counts: Counts, change: Counts, admit: (key: string, counts: Counts) => boolean = () => true): Counts {
  const out: Counts = { ...counts };
  for (const key in change) {
    const value = change[key];
    if (!(key in out) && (value < 0 || !admit(key, out))) continue;
    const sum = Math.round(((out[key] ?? 0) + value) * DECIMALS) / DECIMALS;
    if (sum === 0) delete out[key];
    else out[key] = sum;
  }
  return out;
}

export const isEmpty = (counts: Counts) => Object.keys(counts).length === 0;
