import pLimit from 'p-limit';

/**
 * A forecast holds its campaign's leads and their expected dials in memory while it is computed
 * (about a gigabyte for a million leads, docs/forecast.md): an instance computes one at a time,
 * so requests for several large campaigns at once cannot exhaust it, and a request for a
 * forecast already asked for (the same campaign and `from`) shares that one's answer.
 */
export class ForecastTurns<T> {
  private readonly oneAtATime = pLimit(1);
  private readonly asked = new Map<string, Promise<T>>();

  take(key: string, compute: () => Promise<T>): Promise<T> {
    const shared = this.asked.get(key);
    if (shared) return shared;
    const answer = this.oneAtATime(compute).finally(() => this.asked.delete(key));
    this.asked.set(key, answer);
    return answer;
  }
}
