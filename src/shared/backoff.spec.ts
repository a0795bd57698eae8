import { Backoff } from './backoff';

describe('Backoff', () => {
  const at = (ms: number) => new Date(1_000_000 + ms);

  it('doubles the wait after each failure in a row, up to the most, and forgets a key that succeeded', () => {
    const backoff = new Backoff(1000, 5000);
    expect(backoff.due(1, at(0))).toBe(true);
    expect(backoff.failed(1, at(0))).toEqual(at(1000));
    expect(backoff.due(1, at(999))).toBe(false);
    expect(backoff.due(1, at(1000))).toBe(true);
    expect(backoff.failed(1, at(1000))).toEqual(at(3000));
    expect(backoff.failed(1, at(3000))).toEqual(at(7000));
    expect(backoff.failed(1, at(7000))).toEqual(at(12000));
    expect(backoff.due(2, at(0))).toBe(true);
    backoff.succeeded(1);
    expect(backoff.due(1, at(7001))).toBe(true);
    expect(backoff.failed(1, at(0))).toEqual(at(1000));
  });
});
