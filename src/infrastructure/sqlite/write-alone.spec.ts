import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countFromAnotherConnection } from '../../testing/another-connection';
import { writerInAnotherProcess, writing } from '../../testing/writer-in-another-process';
import { openSqlite } from './open-sqlite';
import { FileWrittenElsewhere, discardUnsynced, unsyncedMarker, writeAlone } from './write-alone';

const settings = (db: Database.Database) =>
  Object.fromEntries(['journal_mode', 'locking_mode', 'synchronous', 'busy_timeout'].map((name) => [name, db.pragma(name, { simple: true })]));
const asOpened = { journal_mode: 'wal', locking_mode: 'normal', synchronous: 1, busy_timeout: 10000 };

const readFrom = (file: string) => countFromAnotherConnection(file, 't');

describe('writeAlone', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'write-alone-'));
    file = join(dir, 'read.db');
    db = openSqlite(file);
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given the file to itself, when it works, then it writes in a rollback journal without syncs, locked to it and marked by its pid', async () => {
    const during = await writeAlone(db, file, async () => {
      db.exec('INSERT INTO t VALUES (2)');
      return { settings: settings(db), other: readFrom(file), marker: readFileSync(unsyncedMarker(file), 'utf8') };
    });
    expect(during).toEqual({
      settings: { journal_mode: 'delete', locking_mode: 'exclusive', synchronous: 0, busy_timeout: 10000 },
      other: 'SQLITE_BUSY',
      marker: String(process.pid),
    });
  });

  it('given a file already in a rollback journal (the switch changes nothing), when it works, then other connections are shut out before it writes', async () => {
    db.pragma('journal_mode = DELETE');
    const during = await writeAlone(db, file, async () => ({ other: readFrom(file), marked: existsSync(unsyncedMarker(file)) }));
    expect(during).toEqual({ other: 'SQLITE_BUSY', marked: true });
  });

  it('then leaves the file as opened, its marker gone and its writes seen by other connections', async () => {
    await writeAlone(db, file, async () => db.exec('INSERT INTO t VALUES (2)'));
    expect(settings(db)).toEqual(asOpened);
    expect(existsSync(unsyncedMarker(file))).toBe(false);
    expect(readFrom(file)).toBe(2);
  });

  it('when the work fails, then it restores the file all the same and passes the failure on', async () => {
    const failed = writeAlone(db, file, async () => {
      db.exec('INSERT INTO t VALUES (2)');
      throw new Error('half way');
    });
    await expect(failed).rejects.toThrow('half way');
    expect(settings(db)).toEqual(asOpened);
    expect(existsSync(unsyncedMarker(file))).toBe(false);
    expect(readFrom(file)).toBe(2);
  });

  it('given another connection with the file open, when it works, then it stays in WAL at once, unmarked, the other still reading', async () => {
    const other = new Database(file);
    other.prepare('SELECT 1 FROM t').get();
    try {
      const during = await writeAlone(db, file, async () => ({
        settings: settings(db),
        marked: existsSync(unsyncedMarker(file)),
        other: other.prepare('SELECT count(*) FROM t').pluck().get(),
      }));
      expect(during).toEqual({ settings: asOpened, marked: false, other: 1 });
      expect(settings(db)).toEqual(asOpened);
    } finally {
      other.close();
    }
  });
});

describe('discardUnsynced', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'discard-unsynced-'));
    file = join(dir, 'read.db');
    const db = openSqlite(file);
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    db.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('given no marker, then it leaves the file as it is', () => {
    expect(discardUnsynced(file)).toBe(false);
    expect(readFrom(file)).toBe(1);
  });

  it('given the marker and the journal of a writer killed mid-write, then it deletes the file, its journal and the marker', async () => {
    const writer = writerInAnotherProcess(file, 'die');
    writeFileSync(unsyncedMarker(file), String(writer.pid));
    await new Promise((resolve) => writer.once('exit', resolve));
    expect(existsSync(`${file}-journal`)).toBe(true);
    expect(discardUnsynced(file)).toBe(true);
    expect([file, `${file}-journal`, unsyncedMarker(file)].filter((path) => existsSync(path))).toEqual([]);
  });

  it('given a marker whose pid now belongs to another live process (after a restart), then the unlocked file is deleted all the same', () => {
    writeFileSync(unsyncedMarker(file), String(process.ppid));
    expect(discardUnsynced(file)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('given a writer still holding the file, then it refuses, naming that process, and deletes nothing', async () => {
    const writer = writerInAnotherProcess(file, 'hold');
    try {
      await writing(writer);
      writeFileSync(unsyncedMarker(file), String(writer.pid));
      expect(() => discardUnsynced(file)).toThrow(FileWrittenElsewhere);
      expect(() => discardUnsynced(file)).toThrow(`read.db is being rebuilt by process ${writer.pid}`);
      expect(existsSync(unsyncedMarker(file))).toBe(true);
      expect(existsSync(file)).toBe(true);
    } finally {
      writer.kill();
    }
  });
});
