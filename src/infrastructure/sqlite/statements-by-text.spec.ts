import Database from 'better-sqlite3';
import { statementsByText } from './statements-by-text';

describe('statementsByText', () => {
  it('prepares a text once while it is among the last used, and again once forgotten', () => {
    const db = new Database(':memory:');
    const prepare = jest.spyOn(db, 'prepare');
    const statement = statementsByText(db, 2);
    const one = statement('SELECT 1');
    expect(statement('SELECT 1')).toBe(one);
    statement('SELECT 2');
    statement('SELECT 1');
    statement('SELECT 3');
    expect(prepare).toHaveBeenCalledTimes(3);
    expect(statement('SELECT 2').get()).toEqual({ 2: 2 });
    expect(prepare).toHaveBeenCalledTimes(4);
    db.close();
  });
});
