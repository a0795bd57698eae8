import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from './open-sqlite';

describe('openSqlite', () => {
  it('opens the file in WAL mode, durable at checkpoints, waiting on locks, checkpointing every 8,000 pages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'open-sqlite-'));
    const db = openSqlite(join(dir, 'store.db'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(10000);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(8000);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
