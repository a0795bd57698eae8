import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

const byConnection = new WeakMap<Database.Database, LRUCache<string, Database.Statement>>();

/**
 * The connection's statement of this text, prepared once while it is among the 500 used last:
 * preparing costs more than running most of the store's statements.
 */
export function prepared(db: Database.Database, sql: string): Database.Statement {
  let statements = byConnection.get(db);
  if (!statements) byConnection.set(db, (statements = new LRUCache({ max: 500 })));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
}
