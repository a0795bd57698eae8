import { applied, difference } from './counts';

describe('flat counts', () => {
  it('applies the difference of two contributions, removing what falls to zero', () => {
    const before = { calls: 1, 'status:ringing': 1, cost: 0 };
    const after = { calls: 1, 'status:completed': 1, cost: 0.06 };
    const change = difference(before, after);
    expect(change).toEqual({ 'status:completed': 1, cost: 0.06, 'status:ringing': -1 });
    expect(applied({ calls: 5, 'status:ringing': 1, cost: 0.1 }, change)).toEqual({ calls: 5, 'status:completed': 1, cost: 0.16 });
  });

  it('leaves exactly nothing after adding and removing sums of decimals', () => {
    let counts = {};
    const costs = [0.1, 0.2, 0.3, 0.07, 0.013];
    for (const cost of costs) counts = applied(counts, { cost });
    for (const cost of costs) counts = applied(counts, { cost: -cost });
    expect(counts).toEqual({});
  });

  it('lets a cap refuse a new key, and never takes from a key it refused', () => {
    const cap = (key: string, counts: Record<string, number>) => Object.keys(counts).filter((k) => k.startsWith('o:')).length < 2;
    let counts = applied({}, { 'o:a': 1, 'o:b': 1 }, cap);
    counts = applied(counts, { 'o:c': 1 }, cap);
    expect(counts).toEqual({ 'o:a': 1, 'o:b': 1 });
    expect(applied(counts, { 'o:c': -1, 'o:a': -1 }, cap)).toEqual({ 'o:b': 1 });
  });
});
