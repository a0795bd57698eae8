import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { countFromAnotherConnection } from '../../testing/another-connection';
import { sqliteFileWith } from '../../testing/sqlite-file';
import { CHECKPOINT_PAGES } from './open-sqlite';
import { SEND_EVERY, WriterThread } from './writer-thread';

describe('WriterThread', () => {
  let dir: string;
  let file: string;
  let writer: WriterThread;
  const insert = (x: number | string) => ({ sql: 'INSERT INTO t (x) VALUES (?)', args: [x] });
  const rows = () => countFromAnotherConnection(file, 't');
  beforeEach(() => {
    ({ dir, file } = sqliteFileWith('writer-thread-', 'CREATE TABLE t (x UNIQUE)'));
    writer = new WriterThread(file);
  });
  afterEach(async () => {
    await writer.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes in order, in one transaction until the commit, then seen by other connections', async () => {
    writer.run(insert(1));
    writer.run(insert(2));
    writer.send();
    // Uncommitted, the writes are the thread's alone: its own reads see them, others wait.
    expect(await writer.query<{ n: number }>('SELECT count(*) AS n FROM t', [], false)).toEqual({ n: 2 });
    expect(rows()).toBe(0);
    await writer.commit();
    expect(rows()).toBe(2);
    writer.run(insert(3));
    await writer.commit();
    expect(await writer.query('SELECT x FROM t ORDER BY x', [], true)).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
  });

  it('sends queued writes once SEND_EVERY wait, before the commit: the thread holds the write lock then', async () => {
    const other = new Database(file, { timeout: 0 });
    const locked = () => {
      try {
        other.exec('BEGIN IMMEDIATE; ROLLBACK');
        return false;
      } catch {
        return true;
      }
    };
    try {
      for (let x = 1; x < SEND_EVERY; x++) writer.run(insert(x));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(locked()).toBe(false);
      writer.run(insert(SEND_EVERY));
      for (const deadline = Date.now() + 5000; !locked() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(locked()).toBe(true);
      await writer.commit();
      expect(rows()).toBe(SEND_EVERY);
    } finally {
      other.close();
    }
  });

  it('drops the writes of a rolled-back transaction, sent or only queued', async () => {
    writer.run(insert(1));
    await writer.commit();
    writer.run(insert(2));
    writer.send();
    writer.run(insert(3));
    writer.rollback();
    writer.run(insert(4));
    await writer.commit();
    expect(await writer.query('SELECT x FROM t ORDER BY x', [], true)).toEqual([{ x: 1 }, { x: 4 }]);
  });

  it('given a write that fails, then its transaction is rolled back, and the commit, later queries and close answer that failure', async () => {
    writer.run(insert(1));
    await writer.commit();
    writer.run(insert(2));
    writer.run(insert(1));
    await expect(writer.commit()).rejects.toThrow(`Writing ${file} failed: UNIQUE constraint failed: t.x`);
    writer.run(insert(5));
    await expect(writer.commit()).rejects.toThrow('UNIQUE constraint failed');
    await expect(writer.query('SELECT 1', [], false)).rejects.toThrow('UNIQUE constraint failed');
    await expect(writer.close()).rejects.toThrow('UNIQUE constraint failed');
    expect(rows()).toBe(1);
  });

  it('writes without syncs, leaving the file in WAL', async () => {
    expect(await writer.query('PRAGMA synchronous', [], false)).toEqual({ synchronous: 0 });
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });

  it('synced, writes as the stores’ own connections do', async () => {
    const synced = new WriterThread(file, { synced: true });
    try {
      expect(await synced.query('PRAGMA synchronous', [], false)).toEqual({ synchronous: 1 });
      expect(await synced.query('PRAGMA wal_autocheckpoint', [], false)).toEqual({ wal_autocheckpoint: CHECKPOINT_PAGES });
    } finally {
      await synced.close();
    }
  });

  describe('a guarded commit', () => {
    const guard = (expected: number) => ({ read: 'SELECT count(*) FROM t WHERE x >= 100', expected, count: "INSERT INTO t (x) SELECT 100 + count(*) FROM t WHERE x >= 100 RETURNING x - 99" });

    it('commits when the value read under the lock is the one expected, and answers it moved on', async () => {
      writer.run(insert(1));
      expect(await writer.commit(guard(0))).toEqual({ count: 1 });
      writer.run(insert(2));
      expect(await writer.commit(guard(1))).toEqual({ count: 2 });
      expect(rows()).toBe(4);
    });

    it('rolls back when another connection moved the value, answering the value found, and goes on writing', async () => {
      const other = new Database(file);
      other.exec('INSERT INTO t (x) VALUES (100)');
      other.close();
      writer.run(insert(1));
      expect(await writer.commit(guard(0))).toEqual({ conflict: 1 });
      expect(rows()).toBe(1);
      writer.run(insert(1));
      expect(await writer.commit(guard(1))).toEqual({ count: 2 });
      expect(rows()).toBe(3);
    });

    it('answers null with nothing to commit', async () => {
      expect(await writer.commit(guard(5))).toBeNull();
    });
  });

  it('when closed, then what it had not committed is dropped and the thread ends', async () => {
    writer.run(insert(1));
    writer.send();
    await writer.close();
    expect(rows()).toBe(0);
    await expect(writer.commit()).rejects.toThrow();
  });
});
