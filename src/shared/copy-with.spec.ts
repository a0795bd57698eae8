import { copyWith } from './copy-with';

describe('copyWith', () => {
  it('copies the value with the changes over it, leaving the value as it was', () => {
    const value = { a: 1, b: { c: 2 }, d: 'x' };
    const copy = copyWith(value, { a: 3 });
    expect(copy).toEqual({ a: 3, b: { c: 2 }, d: 'x' });
    expect(value).toEqual({ a: 1, b: { c: 2 }, d: 'x' });
    expect(copy.b).toBe(value.b);
    expect(Object.keys(copy)).toEqual(['a', 'b', 'd']);
  });
});
