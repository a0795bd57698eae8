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

  it('makes a new file with the page size asked, and leaves an existing file the size it was made with', () => {
    const file = join(dir, 'store.db');
    const pageSize = (size?: number) => {
      const db = openSqlite(file, { pageSize: size });
      try {
        db.exec('CREATE TABLE IF NOT EXISTS t (x)');
        return { pageSize: db.pragma('page_size', { simple: true }), ...settings(db) };
      } finally {
        db.close();
      }
    };
    expect(pageSize(16_384)).toEqual({ pageSize: 16_384, ...opened });
    expect(pageSize(4_096)).toEqual({ pageSize: 16_384, ...opened });
    expect(pageSize()).toEqual({ pageSize: 16_384, ...opened });
  });

  it("is how both embedded stores open their files: the read store in 16 KB pages, the event store in SQLite's 4 KB", async () => {
    const events = new SqliteEventStore(join(dir, 'events.db'));
    const read = new SqliteDocumentStore(join(dir, 'read.db'));
    const pageSize = (store: object) => connectionOf(store).pragma('page_size', { simple: true });
    try {
      for (const store of [events, read]) expect(settings(connectionOf(store))).toEqual(opened);
      expect({ events: pageSize(events), read: pageSize(read) }).toEqual({ events: 4096, read: 16_384 });
    } finally {
      await events.close();
      await read.close();
    }
  });
});
