import { inferFromAll, inferSchema } from './infer-schema';

describe('inferSchema', () => {
  it('given an answer, then every field it has is required and typed as it came', () => {
    expect(inferSchema({ id: 1, name: 'Ada', active: true, at: '2026-11-26T07:00:00.000Z', tags: ['a'] })).toEqual({
      type: 'object',
      properties: {
        id: { type: 'number' },
        name: { type: 'string' },
        active: { type: 'boolean' },
        at: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['id', 'name', 'active', 'at', 'tags'],
    });
  });

  it('given a field only ever null, then it may hold anything; null in one answer and typed in another, then it is nullable', () => {
    expect(inferSchema({ last_error: null }).properties).toEqual({ last_error: {} });
    expect(inferFromAll([{ last_error: null }, { last_error: 'busy' }]).properties).toEqual({ last_error: { type: 'string', nullable: true } });
  });

  it('given list items with different fields, then only the fields all share are required', () => {
    expect(inferSchema([{ id: 1, a: 1 }, { id: 2 }]).items).toEqual({
      type: 'object',
      properties: { id: { type: 'number' }, a: { type: 'number' } },
      required: ['id'],
    });
  });

  it("given objects keyed by the user's own names or paths named open, then they stay open", () => {
    const schema = inferSchema({ variables: { customer_name: 'Ann' }, data: [{ data: { lead_id: 1 } }] }, ['data[].data']);
    expect(schema.properties!.variables).toEqual({ type: 'object', additionalProperties: true });
    expect(schema.properties!.data.items!.properties!.data).toEqual({ type: 'object', additionalProperties: true });
  });
});
