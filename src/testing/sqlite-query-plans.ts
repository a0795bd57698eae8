import Database from 'better-sqlite3';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';

/** The store's connection, for specs that look under the port. */
export const sqliteOf = (store: SqliteDocumentStore) => (store as unknown as { db: Database.Database }).db;

/**
 * Runs a read and answers SQLite's query plan of each statement it prepared, with the
 * arguments it ran with, beside what the read answered. Statements prepared before (kept by
 * the store) are not seen: give each read a store or a collection of its own.
 */
export async function queryPlans<R>(store: SqliteDocumentStore, read: () => Promise<R>): Promise<{ plans: string[]; result: R }> {
  const db = sqliteOf(store);
  const prepare = db.prepare.bind(db);
  const ran: Array<{ sql: string; args: unknown[] }> = [];
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    for (const method of ['all', 'get'] as const) {
      const run = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      Object.assign(statement, { [method]: (...args: unknown[]) => (ran.push({ sql, args }), run(...args)) });
    }
    return statement;
  }) as typeof db.prepare;
  let result: R;
  try {
    result = await read();
  } finally {
    db.prepare = prepare;
  }
  const plans = ran.map(({ sql, args }) => (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((p) => p.detail).join(' | '));
  return { plans, result };
}

/** Expects every statement `read` runs to search through an index, with no table scan and no sort of its own. */
export async function expectIndexedWithoutSorting(store: SqliteDocumentStore, read: () => Promise<unknown>): Promise<void> {
  const { plans } = await queryPlans(store, read);
  expect(plans.length).toBeGreaterThan(0);
  for (const plan of plans) {
    expect(plan).toMatch(/USING (COVERING )?INDEX/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN/);
  }
}
