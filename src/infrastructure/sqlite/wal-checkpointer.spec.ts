import { Logger } from '@nestjs/common';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from './open-sqlite';
import { WalCheckpointer } from './wal-checkpointer';

/** The database file's own size: what checkpoints have copied into it, the log aside. */
const fileSize = (file: string) => statSync(file).size;

async function eventually<T>(read: () => T, done: (value: T) => boolean): Promise<T> {
  for (const deadline = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 20))) {
    const value = read();
    if (done(value) || Date.now() > deadline) return value;
  }
}

describe('WalCheckpointer', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  let checkpointer: WalCheckpointer | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
    file = join(dir, 'events.db');
    db = openSqlite(file);
    // The writing connection never checkpoints here: what reaches the file is the worker's doing.
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (x TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`row ${i} `.repeat(20));
    })();
  });
  afterEach(async () => {
    await checkpointer?.stop();
    checkpointer = undefined;
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pages = () => (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);

  it('given pages only in the log, when it runs, then it copies them into the database file', async () => {
    expect(fileSize(file)).toBeLessThan(pages());
    checkpointer = new WalCheckpointer([file], 10);
    expect(
      await eventually(
        () => fileSize(file),
        (size) => size === pages(),
      ),
    ).toBe(pages());
  });

  it('goes on copying what later commits add', async () => {
    checkpointer = new WalCheckpointer([file], 10);
    await eventually(
      () => fileSize(file),
      (size) => size === pages(),
    );
    db.exec(`INSERT INTO t SELECT x || 'again' FROM t`);
    expect(
      await eventually(
        () => fileSize(file),
        (size) => size === pages(),
      ),
    ).toBe(pages());
  });

  it('when stopped, then its connections are closed: the writing connection has the file alone again', async () => {
    checkpointer = new WalCheckpointer([file], 10);
    await eventually(
      () => fileSize(file),
      (size) => size === pages(),
    );
    const whileRunning = (() => {
      try {
        return db.pragma('journal_mode = DELETE', { simple: true });
      } catch (error) {
        return (error as { code: string }).code;
      }
    })();
    await checkpointer.stop();
    expect({ whileRunning, stopped: db.pragma('journal_mode = DELETE', { simple: true }) }).toEqual({ whileRunning: 'SQLITE_BUSY', stopped: 'delete' });
  });

  it('given a file it cannot open, then it says so and stops all the same: the writing connections keep checkpointing', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      checkpointer = new WalCheckpointer([join(dir, 'missing.db')], 10);
      await eventually(
        () => warn.mock.calls.length,
        (n) => n > 0,
      );
      await checkpointer.stop();
      expect(warn.mock.calls).toEqual([[expect.stringMatching(/^Checkpoints are back on the writing connections: .*missing\.db/)]]);
    } finally {
      warn.mockRestore();
    }
  });
});
