import pLimit from 'p-limit';

/** A forecast of at most this many leads is a small one: it never waits behind a larger one. */
export const SMALL_FORECAST_LEADS = 50_000;
/** Small forecasts computed at once: with the one large forecast, at most 200,000 more leads in memory. */
const SMALL_AT_ONCE = 4;

/**
 * A forecast holds its campaign's leads and their expected dials in memory while it is computed
 * (about a gigabyte for a million leads, docs/forecast.md): an instance computes one large
 * forecast at a time, and small ones beside it a few at a time, so requests for several large
 * campaigns at once cannot exhaust it, and one organisation's large campaign cannot keep another's
 * small one waiting. A request for a forecast already asked for (the same campaign and `from`)
 * shares that one's answer.
 */
export class ForecastTurns<T> {
  private readonly large = pLimit(1);
  private readonly small = pLimit(SMALL_AT_ONCE);
  private readonly asked = new Map<string, Promise<T>>();

  /** `leads`: how many the forecast reads, which decides its turn. */
  take(key: string, leads: number, compute: () => Promise<T>): Promise<T> {
    const shared = this.asked.get(key);
    if (shared) return shared;
    const turn = leads <= SMALL_FORECAST_LEADS ? this.small : this.large;
    const answer = turn(compute).finally(() => this.asked.delete(key));
    this.asked.set(key, answer);
    return answer;
  }
}
