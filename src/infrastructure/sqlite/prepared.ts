import Database from 'better-sqlite3';

const byConnection = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** Texts a connection keeps prepared; past them, it starts again (texts vary with filters, sorts and limits). */
const KEPT = 500;

/** The connection's statement of this text, prepared once: preparing costs more than running most of them. */
export function prepared(db: Database.Database, sql: string): Database.Statement {
  let statements = byConnection.get(db);
  if (!statements) byConnection.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= KEPT) statements.clear();
    statements.set(sql, (statement = db.prepare(sql)));
  }
  return statement;
}
