/** Per-key exponential backoff: after n failures in a row a key waits base·2^(n-1), at most `maxMs`. */
export class Backoff {
  private readonly failures = new Map<number, { count: number; retryAt: number }>();

  constructor(
    private readonly baseMs = 1000,
    private readonly maxMs = 5 * 60_000,
  ) {}

  due(key: number, now: Date): boolean {
    const held = this.failures.get(key);
    return !held || held.retryAt <= now.getTime();
  }

  /** Records a failure; answers when the key may be tried again. */
  failed(key: number, now: Date): Date {
    const count = (this.failures.get(key)?.count ?? 0) + 1;
    const retryAt = now.getTime() + Math.min(this.baseMs * 2 ** (count - 1), this.maxMs);
    this.failures.set(key, { count, retryAt });
    return new Date(retryAt);
  }

  succeeded(key: number): void {
    this.failures.delete(key);
  }
}
