import Database from 'better-sqlite3';

/**
 * WAL pages copied back into the database file once the log holds this many (SQLite's default
 * is 1,000): between two checkpoints a page written many times (counts, checkpoints, the index
 * pages every dialing attempt rewrites) is copied once.
 */
export const CHECKPOINT_PAGES = 8000;

export interface SqliteFileOptions {
  /** False for a file thrown away unless it is done (a rebuild's): commits are not synced. */
  durable?: boolean;
}

/** An SQLite file in WAL mode, as both embedded stores open theirs. */
export function openSqlite(file: string, options: SqliteFileOptions = {}): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.durable === false ? 'OFF' : 'NORMAL'}`);
  db.pragma('busy_timeout = 10000');
  db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  return db;
}
