import { roughSize } from './rough-size';

describe('roughSize', () => {
  it('grows with the characters a value holds, however deep', () => {
    const small = { spec: { variables: { note: 'x' } } };
    const large = { spec: { variables: { note: 'x'.repeat(1_000_000) } } };
    expect(roughSize(large) - roughSize(small)).toBeGreaterThanOrEqual(2 * 999_999);
    expect(roughSize(['a', 'b'])).toBeLessThan(roughSize(['a', 'b', 'c']));
  });

  it('measures a part shared by two values once', () => {
    const reads = jest.fn();
    const spec = new Proxy({ note: 'x'.repeat(100) }, { get: (target, key) => (reads(key), Reflect.get(target, key)) });
    const queued = roughSize({ status: 'queued', spec });
    const ringing = roughSize({ status: 'ringing', spec });
    expect(ringing - queued).toBe(2);
    expect(reads).toHaveBeenCalledTimes(1);
  });
});
