import Database from 'better-sqlite3';
import { addAuditColumns } from './sqlite-audit-columns';

/** The embedded event store's tables, and what a store written by an earlier version is brought up to. */
export function createEventTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS events (
      position INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      stream TEXT NOT NULL,
      revision INTEGER NOT NULL,
      type TEXT NOT NULL,
      schema_version INTEGER NOT NULL,
      data TEXT NOT NULL,
      metadata TEXT NOT NULL,
      occurred_at TEXT NOT NULL,
      UNIQUE (stream, revision)
    );
    CREATE TABLE IF NOT EXISTS sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS stream_starts (stream TEXT PRIMARY KEY, revision INTEGER NOT NULL);
  `);
  addCorrelationColumn(db);
  addAuditColumns(db);
}

/** The indexed column behind `readCorrelated`; a store written before it existed gets it filled from the metadata. */
function addCorrelationColumn(db: Database.Database): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(events)').all();
  if (!columns.some((c) => c.name === 'correlation_id')) {
    db.exec(`
      ALTER TABLE events ADD COLUMN correlation_id TEXT;
      UPDATE events SET correlation_id = json_extract(metadata, '$."$correlationId"');
    `);
  }
  db.exec('CREATE INDEX IF NOT EXISTS events_correlation ON events (correlation_id, position) WHERE correlation_id IS NOT NULL');
  // A (type, position) index slowed every append and sped up no read (subscriptions pass over
  // a stretch of other events once): a store that had it loses it.
  db.exec('DROP INDEX IF EXISTS events_type');
}
