import { JsonText } from './json-text';

describe('JsonText', () => {
  const views = [JSON.stringify({ id: 1, a: 'x' }), JSON.stringify({ id: 2, a: 'y"}' })];

  it('joins serialised values into an array that parses back to them', () => {
    expect(JSON.parse(JsonText.array(views).text)).toEqual([
      { id: 1, a: 'x' },
      { id: 2, a: 'y"}' },
    ]);
    expect(JSON.parse(JsonText.array([]).text)).toEqual([]);
  });

  it('puts a serialised member into an object, beside its other members', () => {
    expect(JSON.parse(JsonText.object({ total: 2, next: null }, 'data', JsonText.array(views)).text)).toEqual({
      data: [
        { id: 1, a: 'x' },
        { id: 2, a: 'y"}' },
      ],
      total: 2,
      next: null,
    });
    expect(JSON.parse(JsonText.object({}, 'data', JsonText.array([])).text)).toEqual({ data: [] });
  });

  it('adds a member to each serialised object, empty or not', () => {
    expect(JSON.parse(JsonText.arrayWithMember([views[1], '{}'], 'campaign', { id: 3, name: 'Q"4' }).text)).toEqual([
      { id: 2, a: 'y"}', campaign: { id: 3, name: 'Q"4' } },
      { campaign: { id: 3, name: 'Q"4' } },
    ]);
    expect(JSON.parse(JsonText.arrayWithMember(['{}'], 'campaign', null).text)).toEqual([{ campaign: null }]);
    expect(JSON.parse(JsonText.arrayWithMember([], 'campaign', null).text)).toEqual([]);
  });
});
