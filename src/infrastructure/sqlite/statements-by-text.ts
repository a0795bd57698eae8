import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/**
 * A connection's statements by their text, each prepared once while it is among the `max`
 * used last: for statements whose text varies (filters, sorts, limits; see limitClause).
 */
export function statementsByText(db: Database.Database, max: number): (sql: string) => Database.Statement {
  const prepared = new LRUCache<string, Database.Statement>({ max });
  return (sql) => {
    let statement = prepared.get(sql);
    if (!statement) prepared.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
}
