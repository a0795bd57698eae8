import Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import { prepared } from '../sqlite/prepared';

/** Expired counters are dropped at most this often. */
const PURGE_EVERY_MS = 60_000;

/**
 * Counters shared by the processes of a data directory, in a file of their own: a hit is a
 * commit, and in the read store's file each would make other processes' batches start again.
 */
export class SqliteCounters {
  private db?: Database.Database;
  private purgedAt = 0;

  constructor(private readonly file: string) {}

  hit(name: string, expiresAt: number, now: number): number {
    const db = (this.db ??= this.open());
    if (now - this.purgedAt > PURGE_EVERY_MS) {
      this.purgedAt = now;
      prepared(db, 'DELETE FROM counters WHERE expires_at <= ?').run(now);
    }
    return prepared(
      db,
      `INSERT INTO counters (name, n, expires_at) VALUES (?, 1, ?)
       ON CONFLICT (name) DO UPDATE SET n = CASE WHEN expires_at <= ? THEN 1 ELSE n + 1 END, expires_at = excluded.expires_at
       RETURNING n`,
    )
      .pluck()
      .get(name, expiresAt, now) as number;
  }

  close(): void {
    if (this.db?.open) this.db.close();
  }

  private open(): Database.Database {
    const db = openSqlite(this.file);
    // A lost count costs a request more or less; not worth a sync.
    db.pragma('synchronous = OFF');
    db.exec('CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID');
    return db;
  }
}
