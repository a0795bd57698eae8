import { EveryField } from './every-field';

interface Door {
  id: number;
  label?: string;
}

describe('EveryField', () => {
  // `npm test` type-checks the specs first (`pretest`): the refused literals must fail to compile.
  it('takes a literal naming every field, an optional one as undefined, and refuses one that leaves an optional field out', () => {
    const named: EveryField<Door> = { id: 1, label: undefined };
    const door: Door = named;
    expect(door).toEqual({ id: 1, label: undefined });
    // @ts-expect-error label is left out
    const unnamed: EveryField<Door> = { id: 1 };
    // @ts-expect-error a required field stays required to its type
    const wrong: EveryField<Door> = { id: undefined, label: 'front' };
    expect([unnamed, wrong]).toHaveLength(2);
  });
});
