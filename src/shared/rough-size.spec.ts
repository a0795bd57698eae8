import { roughSize } from './rough-size';

describe('roughSize', () => {
  it('grows with the characters a value holds, however deep', () => {
    const small = { spec: { variables: { note: 'x' } } };
    const large = { spec: { variables: { note: 'x'.repeat(1_000_000) } } };
    expect(roughSize(large) - roughSize(small)).toBeGreaterThanOrEqual(2 * 999_999);
    expect(roughSize(['a', 'b'])).toBeLessThan(roughSize(['a', 'b', 'c']));
    expect(roughSize({ a: 1 })).toBeLessThan(roughSize({ a: 1, b: null }));
  });

  it('weighs what maps and sets hold: states keep members and tokens in them', () => {
    const token = 'x'.repeat(1_000_000);
    expect(roughSize({ activeTokens: new Set([token]) })).toBeGreaterThanOrEqual(2 * 1_000_000);
    expect(roughSize({ members: new Map([[1, token]]) })).toBeGreaterThanOrEqual(2 * 1_000_000);
    expect(roughSize(new Map([[token, 'owner']]))).toBeGreaterThanOrEqual(2 * 1_000_000);
  });
});
