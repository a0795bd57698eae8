import Database from 'better-sqlite3';
import { limitClause } from './limit-clause';

describe('limitClause', () => {
  it('writes the number of rows into the text', () => {
    expect(limitClause(100)).toBe('LIMIT 100');
    expect(limitClause(0)).toBe('LIMIT 0');
  });

  it('refuses anything but a whole number of rows, so nothing else reaches the SQL', () => {
    for (const bad of [1.5, -1, NaN, Infinity, 2 ** 53, '1; DROP TABLE events' as unknown as number]) {
      expect(() => limitClause(bad)).toThrow(RangeError);
    }
  });

  it('limits a query as a bound LIMIT does', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3)');
    expect(
      db
        .prepare(`SELECT n FROM t ORDER BY n ${limitClause(2)}`)
        .pluck()
        .all(),
    ).toEqual([1, 2]);
    db.close();
  });
});
