import fc from 'fast-check';
import { IntegerKeys } from './integer-keys';

describe('IntegerKeys', () => {
  it('holds only keys written as non-negative integers below its cap', () => {
    expect(['0', '42', '134217727'].map(IntegerKeys.of)).toEqual([0, 42, 134217727]);
    expect(['134217728', '-1', '007', '4.0', '1e3', ' 4', '', 'tok_1'].map(IntegerKeys.of)).toEqual(Array(8).fill(null));
  });

  it('given any sequence of keys set present or absent, then it answers as a Set would', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: 200_000 }), fc.boolean()), { maxLength: 300 }), (writes) => {
        const keys = new IntegerKeys();
        const model = new Set<number>();
        for (const [n, present] of writes) {
          keys.set(n, present);
          if (present) model.add(n);
          else model.delete(n);
        }
        for (const [n] of writes) expect(keys.has(n)).toBe(model.has(n));
        expect(keys.has(200_001)).toBe(false);
      }),
    );
  });
});
