import Database from 'better-sqlite3';
import { prepared } from './prepared';

describe('prepared', () => {
  it('prepares a text once per connection', () => {
    const one = new Database(':memory:');
    const other = new Database(':memory:');
    const prepare = jest.spyOn(one, 'prepare');
    const statement = prepared(one, 'SELECT 1 AS n');
    expect(prepared(one, 'SELECT 1 AS n')).toBe(statement);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(prepared(other, 'SELECT 1 AS n')).not.toBe(statement);
    expect(prepared(other, 'SELECT 1 AS n').get()).toEqual({ n: 1 });
    one.close();
    other.close();
  });
});
