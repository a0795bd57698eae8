/** When the organisation's `n`-th value of some kind made at or after `from` (epoch ms) was made; null with fewer. */
export type NthMadeSince = (from: number, n: number) => Promise<number | null>;

/**
 * The steps `[from, end)` a sweep erases the span `[from, until)` in, one event each: every step
 * ends where a bucket begins and holds at most `perStep` of each count, so no read model rewrites
 * more than that in one projection step however long the history (docs/privacy.md). A bucket
 * that alone holds more is a step of its own: its values share one key.
 */
export async function* retentionSteps(
  from: number,
  until: number,
  bucketMs: number,
  perStep: number,
  counts: readonly NthMadeSince[],
): AsyncGenerator<[from: number, end: number]> {
  while (from < until) {
    let end = until;
    for (const nthMadeSince of counts) {
      const at = await nthMadeSince(from, perStep + 1);
      if (at !== null && at < end) end = Math.floor(at / bucketMs) * bucketMs;
    }
    end = Math.min(until, Math.max(end, from + bucketMs));
    yield [from, end];
    from = end;
  }
}
