import Database from 'better-sqlite3';

/**
 * WAL pages copied back into the database file once the log holds this many (SQLite's default
 * is 1,000). Between two checkpoints a page written many times is copied once: the counts,
 * checkpoints and index pages every dialing attempt rewrites. Measured on the dialing bench,
 * alternating builds: attempts per second rose in all four pairs at 8,000 (1,109–1,276 against
 * 1,047–1,216) and in three of four at 4,000. 250 made commits 20 % of the profile against
 * 14–16 %, and never checkpointing 22 %: a long log makes every page lookup slower.
 */
export const CHECKPOINT_PAGES = 8000;

export interface SqliteFileOptions {
  /**
   * Bytes per page of a file made now; a file that exists keeps the size it was made with
   * (SQLite changes it only by rewriting the whole file). SQLite's default is 4,096.
   */
  pageSize?: number;
}

/** An SQLite file in WAL mode, as both embedded stores open theirs. */
export function openSqlite(file: string, options: SqliteFileOptions = {}): Database.Database {
  const db = new Database(file);
  // Before the first write: the switch to WAL below writes the file's first page.
  if (options.pageSize) db.pragma(`page_size = ${options.pageSize}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  return db;
}
