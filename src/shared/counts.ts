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
  for (const [key, value] of Object.entries(after)) {
    const change = Math.round((value - (before[key] ?? 0)) * DECIMALS) / DECIMALS;
    if (change !== 0) out[key] = change;
  }
  for (const [key, value] of Object.entries(before)) if (!(key in after) && value !== 0) out[key] = -value;
  return out;
}

/**
 * `counts + change`, keys that fall to zero removed. `admit` may refuse a key not yet counted
 * (a cap on distinct values): refused, it is neither added nor, later, taken from.
 */
export function applied(counts: Counts, change: Counts, admit: (key: string, counts: Counts) => boolean = () => true): Counts {
  const out: Counts = { ...counts };
  for (const [key, value] of Object.entries(change)) {
    if (!(key in out) && (value < 0 || !admit(key, out))) continue;
    const sum = Math.round(((out[key] ?? 0) + value) * DECIMALS) / DECIMALS;
    if (sum === 0) delete out[key];
    else out[key] = sum;
  }
  return out;
}

export const isEmpty = (counts: Counts) => Object.keys(counts).length === 0;
