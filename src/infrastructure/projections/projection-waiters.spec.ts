import { ProjectionWaiters } from './projection-waiters';

describe('ProjectionWaiters', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A wait, and what it was answered so far (undefined while it waits). */
  const waiting = (waiters: ProjectionWaiters, position: number, timeoutMs: number, background = false) => {
    const answer: { ok?: boolean } = {};
    void waiters.wait(position, timeoutMs, background).then((ok) => (answer.ok = ok));
    return answer;
  };
  const tick = (ms: number) => jest.advanceTimersByTimeAsync(ms);

  it('given waits of several timeouts, then each is answered false at its own deadline, whatever order they came in', async () => {
    const waiters = new ProjectionWaiters();
    const long = waiting(waiters, 5, 300, true);
    const short = waiting(waiters, 5, 100);
    const middle = waiting(waiters, 5, 200);
    await tick(99);
    expect([short.ok, middle.ok, long.ok]).toEqual([undefined, undefined, undefined]);
    await tick(2);
    expect([short.ok, middle.ok, long.ok]).toEqual([false, undefined, undefined]);
    await tick(100);
    expect([middle.ok, long.ok]).toEqual([false, undefined]);
    await tick(100);
    expect(long.ok).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('given the projections reach some waits, then those are answered true at once and the others still time out on time', async () => {
    const waiters = new ProjectionWaiters();
    const reached = waiting(waiters, 3, 100);
    const later = waiting(waiters, 9, 150);
    expect(waiters.requestWaits).toBe(true);
    waiters.advance(4);
    await tick(0);
    expect([reached.ok, later.ok]).toEqual([true, undefined]);
    await tick(149);
    expect(later.ok).toBeUndefined();
    await tick(2);
    expect(later.ok).toBe(false);
    expect(waiters.requestWaits).toBe(false);
    // Reached already: answered without waiting.
    await expect(waiters.wait(4, 100, false)).resolves.toBe(true);
  });

  it('given every wait answered, then no timer is left behind; on the end, each is answered whether it was reached', async () => {
    const waiters = new ProjectionWaiters();
    const first = waiting(waiters, 2, 100);
    waiters.advance(2);
    await tick(0);
    expect(first.ok).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
    waiters.advance(5);
    const beyond = waiting(waiters, 8, 100);
    waiters.end();
    await tick(0);
    expect(beyond.ok).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
  });
});
