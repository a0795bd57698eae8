import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { SqliteDocumentStore } from '../read-store/sqlite-document-store';
import { openSqlite } from './open-sqlite';

const settings = (db: Database.Database) =>
  Object.fromEntries(['journal_mode', 'synchronous', 'busy_timeout', 'wal_autocheckpoint'].map((name) => [name, db.pragma(name, { simple: true })]));
const connectionOf = (store: object) => (store as { db: Database.Database }).db;
const opened = { journal_mode: 'wal', synchronous: 1, busy_timeout: 10000, wal_autocheckpoint: 8000 };

describe('openSqlite', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'open-sqlite-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens the file in WAL mode, durable at checkpoints, waiting on locks, checkpointing every 8,000 pages', () => {
    const db = openSqlite(join(dir, 'store.db'));
    try {
      expect(settings(db)).toEqual(opened);
    } finally {
      db.close();
    }
  });

  it('is how both embedded stores open their files', async () => {
    const events = new SqliteEventStore(join(dir, 'events.db'));
    const read = new SqliteDocumentStore(join(dir, 'read.db'));
    try {
      for (const store of [events, read]) expect(settings(connectionOf(store))).toEqual(opened);
    } finally {
      await events.close();
      await read.close();
    }
  });
});
