import Database from 'better-sqlite3';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countFromAnotherConnection } from '../../testing/another-connection';
import { sqliteFileWith } from '../../testing/sqlite-file';
import { writerInAnotherProcess, writing } from '../../testing/writer-in-another-process';
import { openSqlite } from './open-sqlite';
import { FileWrittenElsewhere, UnsyncedMark, discardUnsynced, fsyncInBackground, unsyncedMarker } from './unsynced-mark';

const TABLE_OF_ONE_ROW = 'CREATE TABLE t (x); INSERT INTO t VALUES (1)';
const readFrom = (file: string) => countFromAnotherConnection(file, 't');

describe('UnsyncedMark', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  beforeEach(() => {
    ({ dir, file } = sqliteFileWith('unsynced-mark-', TABLE_OF_ONE_ROW));
    db = openSqlite(file);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when taken, then the marker holds the pid, locked to this process, and the file stays open to other connections', () => {
    const mark = UnsyncedMark.take(file);
    try {
      expect(readFileSync(unsyncedMarker(file)).readUInt32BE(60)).toBe(process.pid);
      expect(countFromAnotherConnection(unsyncedMarker(file), 'sqlite_master')).toBe('SQLITE_BUSY');
      db.exec('INSERT INTO t VALUES (2)');
      expect(readFrom(file)).toBe(2);
      expect(() => discardUnsynced(file)).toThrow(`read.db is being rebuilt by process ${process.pid}`);
    } finally {
      mark.release();
    }
  });

  it('given another process holding the mark (a rebuild under way), when taken, then it refuses at once, naming that process, and leaves its marker', async () => {
    const writer = writerInAnotherProcess(file, 'hold');
    try {
      await writing(writer);
      expect(() => UnsyncedMark.take(file)).toThrow(new FileWrittenElsewhere(file, writer.pid!));
      expect(readFileSync(unsyncedMarker(file)).readUInt32BE(60)).toBe(writer.pid);
    } finally {
      writer.kill();
      await new Promise((resolve) => writer.once('exit', resolve));
    }
  });

  it('while taken, then the file and its log are synced in the background now and then, and no more once released', async () => {
    const asked: string[] = [];
    const synced: string[] = [];
    const mark = UnsyncedMark.take(file, {
      writeOutEveryMs: 20,
      syncInBackground: (path, done) => {
        asked.push(path);
        fsyncInBackground(path, () => (synced.push(path), done()));
      },
    });
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (const deadline = Date.now() + 5000; synced.length < 4 && Date.now() < deadline; ) await wait(10);
    mark.release();
    expect(new Set(synced)).toEqual(new Set([file, `${file}-wal`]));
    const askedThen = asked.length;
    await wait(100);
    expect(asked.length).toBe(askedThen);
    expect(readFrom(file)).toBe(1);
  });

  it('a background sync of a path that is not there (a log not made yet) answers all the same', async () => {
    await new Promise<void>((resolve) => fsyncInBackground(join(dir, 'none.db-wal'), resolve));
  });

  it('when released, then the marker is gone and the file opens as usual', () => {
    UnsyncedMark.take(file).release();
    expect(existsSync(unsyncedMarker(file))).toBe(false);
    expect(discardUnsynced(file)).toBe(false);
    expect(readFrom(file)).toBe(1);
  });
});

describe('discardUnsynced', () => {
  let dir: string;
  let file: string;
  beforeEach(() => ({ dir, file } = sqliteFileWith('discard-unsynced-', TABLE_OF_ONE_ROW)));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('given no marker, then it leaves the file as it is', () => {
    expect(discardUnsynced(file)).toBe(false);
    expect(readFrom(file)).toBe(1);
  });

  it('given the marker and the log of a writer killed mid-write, then it deletes the file, its log and the marker', async () => {
    const writer = writerInAnotherProcess(file, 'die');
    await new Promise((resolve) => writer.once('exit', resolve));
    expect(existsSync(`${file}-wal`)).toBe(true);
    expect(discardUnsynced(file)).toBe(true);
    expect([file, `${file}-wal`, `${file}-shm`, unsyncedMarker(file)].filter((path) => existsSync(path))).toEqual([]);
  });

  it('given a marker whose pid now belongs to another live process (after a restart), then the unlocked file is deleted all the same', () => {
    const marker = new Database(unsyncedMarker(file));
    marker.pragma(`user_version = ${process.ppid}`);
    marker.close();
    expect(discardUnsynced(file)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('given a marker written before markers were databases (the pid as text), its writer gone, then the file is deleted', () => {
    writeFileSync(unsyncedMarker(file), String(process.ppid));
    expect(discardUnsynced(file)).toBe(true);
    expect([file, unsyncedMarker(file)].filter((path) => existsSync(path))).toEqual([]);
  });

  it('given a writer still holding the mark, then it refuses, naming that process, and deletes nothing', async () => {
    const writer = writerInAnotherProcess(file, 'hold');
    try {
      await writing(writer);
      expect(() => discardUnsynced(file)).toThrow(FileWrittenElsewhere);
      expect(() => discardUnsynced(file)).toThrow(`read.db is being rebuilt by process ${writer.pid}`);
      expect(existsSync(unsyncedMarker(file))).toBe(true);
      expect(existsSync(file)).toBe(true);
    } finally {
      writer.kill();
      await new Promise((resolve) => writer.once('exit', resolve));
    }
  });
});
