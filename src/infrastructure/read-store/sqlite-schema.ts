import Database from 'better-sqlite3';
import { DocumentView, IndexSpec } from '../../shared/ports/document-store.port';
import { fieldColumn, indexName, path } from './sqlite-sql';

/** The SQLite read store's schema: its tables, columns, indexes, stored views, totals and planner statistics. */

/**
 * Every row of a collection with a view has it: rows stored before the collection had one
 * get theirs made once, a page at a time, and the collection is marked so that later opens
 * do not read the table again. Opened without a view, it loses the mark: rows written then
 * have none.
 */
export function keepViews<T>(db: Database.Database, name: string, table: string, view?: DocumentView<T>): void {
  if (!view) {
    db.prepare('DELETE FROM viewed_collections WHERE collection = ?').run(name);
    return;
  }
  if (db.prepare('SELECT 1 FROM viewed_collections WHERE collection = ?').get(name)) return;
  const missing = db.prepare<[number], { rowid: number; doc: string }>(
    `SELECT rowid, doc FROM ${table} WHERE rowid > ? AND view IS NULL ORDER BY rowid LIMIT 1000`,
  );
  const write = db.prepare<[string, number]>(`UPDATE ${table} SET view = ? WHERE rowid = ?`);
  for (let after = 0, rows = missing.all(after); rows.length; rows = missing.all(after)) {
    db.transaction(() => {
      for (const row of rows) write.run(JSON.stringify(view(JSON.parse(row.doc) as T)), row.rowid);
    })();
    after = rows[rows.length - 1].rowid;
  }
  db.prepare('INSERT INTO viewed_collections (collection) VALUES (?) ON CONFLICT DO NOTHING').run(name);
}

/**
 * Gathers statistics and keeps those of `sqlite_stat1` only: with the samples of `sqlite_stat4`,
 * a statement whose WHERE binds an indexed column is prepared again at every run.
 */
export function analyze(db: Database.Database, sql: string): void {
  db.exec(sql);
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat4'").get()) db.exec('DELETE FROM sqlite_stat4; ANALYZE sqlite_schema');
}

export function createTable(db: Database.Database, table: string, fields: string[]): void {
  const columns = ['id TEXT PRIMARY KEY', 'pos INTEGER NOT NULL', 'doc TEXT NOT NULL', 'view TEXT', ...fields.map(fieldColumn)];
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (${columns.join(', ')})`);
}

export function columnsOf(db: Database.Database, table: string): string[] {
  return db
    .prepare<[], { name: string }>(`PRAGMA table_info(${table})`)
    .all()
    .map((c) => c.name);
}

export function createIndexes(db: Database.Database, table: string, indexes: IndexSpec[]): void {
  for (const index of indexes) {
    db.exec(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${indexName(table, index)} ON ${table} (${index.fields.map(fieldColumn).join(', ')})`);
  }
}

/**
 * Makes the table's indexed columns and indexes those declared now. A store written before
 * gets the columns of newly indexed fields filled from its documents; indexes no longer
 * declared (and the expression indexes over the JSON that columns replaced) are dropped, and
 * so are columns no index names any more, which later writes would leave stale.
 */
export function keepIndexes(db: Database.Database, table: string, indexes: IndexSpec[], fields: string[]): boolean {
  const declared = new Set(indexes.map((index) => indexName(table, index)));
  const stored = db
    .prepare<[string], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
    .all(table);
  const stale = stored.filter((index) => !declared.has(index.name) || index.sql.includes('json_extract('));
  for (const index of stale) db.exec(`DROP INDEX ${index.name}`);
  const columns = columnsOf(db, table);
  for (const column of columns) if (column.startsWith('doc.') && !fields.includes(column.slice(4))) db.exec(`ALTER TABLE ${table} DROP COLUMN "${column}"`);
  const missing = fields.filter((field) => !columns.includes(`doc.${field}`));
  for (const field of missing) db.exec(`ALTER TABLE ${table} ADD COLUMN ${fieldColumn(field)}`);
  if (missing.length) db.exec(`UPDATE ${table} SET ${missing.map((field) => `${fieldColumn(field)} = ${path(field)}`).join(', ')}`);
  createIndexes(db, table, indexes);
  return missing.length > 0 || stale.length > 0;
}
