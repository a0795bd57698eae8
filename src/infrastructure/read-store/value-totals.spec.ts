import { ValueTotals } from './value-totals';

/** Each combination as JSON with its sum, in the order of the JSON (the totals promise none). */
const sums = (totals: ValueTotals) =>
  [...totals.totals()].map(({ values, n }) => [JSON.stringify(values), n] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('ValueTotals', () => {
  it('sums what is added per combination of values', () => {
    const totals = new ValueTotals();
    totals.add([1, 'completed'], 1);
    totals.add([2, 'completed'], 1);
    totals.add([1, 'failed'], 1);
    totals.add([1, 'completed'], 2);
    expect(sums(totals)).toEqual([
      ['[1,"completed"]', 3],
      ['[1,"failed"]', 1],
      ['[2,"completed"]', 1],
    ]);
  });

  it('groups values as their key text does: undefined with null, a number apart from its digits as text, objects by their JSON', () => {
    const totals = new ValueTotals();
    totals.add([undefined], 1);
    totals.add([null], 1);
    totals.add([1], 1);
    totals.add(['1'], 1);
    totals.add([{ a: 1 }], 1);
    totals.add([{ a: 1 }], 1);
    totals.add(['{"a":1}'], 1);
    expect(sums(totals)).toEqual([
      ['["1"]', 1],
      ['["{\\"a\\":1}"]', 1],
      ['[1]', 1],
      ['[null]', 2],
      ['[{"a":1}]', 2],
    ]);
  });

  it('keeps a combination whose moves cancelled out, at 0', () => {
    const totals = new ValueTotals();
    totals.add([7, true], 1);
    totals.add([7, true], -1);
    expect(sums(totals)).toEqual([['[7,true]', 0]]);
  });

  it('adds every total of another', () => {
    const tally = new ValueTotals();
    tally.add([1, 'a'], 5);
    const moves = new ValueTotals();
    moves.add([1, 'a'], -1);
    moves.add([1, 'b'], 1);
    tally.addAll(moves);
    expect(sums(tally)).toEqual([
      ['[1,"a"]', 4],
      ['[1,"b"]', 1],
    ]);
    expect(sums(moves)).toEqual([
      ['[1,"a"]', -1],
      ['[1,"b"]', 1],
    ]);
  });
});
