import Database from 'better-sqlite3';
import { close, closeSync, existsSync, fsync, fsyncSync, open, openSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Present beside a file while it is written without syncs. */
export const unsyncedMarker = (file: string) => `${file}.unsynced`;

/** Another process is writing the file unsynced: it may not be opened (nor discarded) meanwhile. */
export class FileWrittenElsewhere extends Error {
  constructor(file: string, pid: number) {
    super(`${basename(file)} is being rebuilt by process ${pid}; open it once that process has ended`);
  }
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether a connection (in any process) holds an SQLite file locked, as a mark's writer holds
 * its marker until it has synced the file and removed the marker. Locks end with their process,
 * even on a machine that went down, where a pid written in the marker may belong to another
 * process after the restart.
 */
function isLocked(file: string): boolean {
  let db: Database.Database | undefined;
  try {
    // Read-only: a journal left by a process that died is not rolled back here, only refused.
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
    db.pragma('schema_version');
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'SQLITE_BUSY';
  } finally {
    db?.close();
  }
}

/** The writer's pid: in the marker's header (its user version), or the text of a marker written before markers were databases. */
function pidIn(marker: string): number {
  const bytes = readFileSync(marker);
  return bytes.subarray(0, 16).toString('latin1') === 'SQLite format 3\u0000' ? bytes.readUInt32BE(60) : Number(bytes.toString('utf8'));
}

/**
 * Syncs a path on libuv's thread pool, answering `done` once it has (or could not: the log may
 * not exist yet). Whatever it leaves unsynced, `release` syncs.
 */
export function fsyncInBackground(path: string, done: () => void): void {
  open(path, 'r', (error, fd) => {
    if (error) return done();
    fsync(fd, () => close(fd, () => done()));
  });
}

export interface UnsyncedMarkOptions {
  /** How often the file and its log are synced in the background while marked. */
  writeOutEveryMs?: number;
  syncInBackground?: (path: string, done: () => void) => void;
}

/**
 * The mark of a file written without syncs: an SQLite file beside it, holding the writer's pid,
 * that the writer's process keeps locked (exclusive locking mode) from before its first unsynced
 * write until it has synced the file again. A process or machine that goes down in between
 * leaves the marker with no lock held, and `discardUnsynced` drops the file at the next open.
 * The lock is the marker's own, not the file's: the file stays open to other connections (a
 * writer thread, readers) while it is written.
 */
export class UnsyncedMark {
  /**
   * While marked, the file and its log are synced in the background now and then: a rebuild
   * writes gigabytes, and the sync that ends it, written out all at once, took a second of the
   * rebuild's 23 (0.3–0.65 s with these). Paths whose sync is still under way are not asked again.
   */
  private readonly writeOut: NodeJS.Timeout;
  private readonly syncing = new Set<string>();

  private constructor(
    private readonly file: string,
    private readonly marker: Database.Database,
    { writeOutEveryMs = 1000, syncInBackground = fsyncInBackground }: UnsyncedMarkOptions,
  ) {
    this.writeOut = setInterval(() => {
      for (const path of this.paths()) {
        if (this.syncing.has(path)) continue;
        this.syncing.add(path);
        syncInBackground(path, () => this.syncing.delete(path));
      }
    }, writeOutEveryMs);
    this.writeOut.unref();
  }

  /** Marks the file; refuses, naming that process, while another holds the mark (a rebuild under way). */
  static take(file: string, options: UnsyncedMarkOptions = {}): UnsyncedMark {
    const marker = new Database(unsyncedMarker(file), { timeout: 0 });
    try {
      marker.pragma('locking_mode = EXCLUSIVE');
      marker.pragma('journal_mode = MEMORY');
      marker.pragma('synchronous = FULL');
      // A write: the exclusive lock it takes is kept until the connection closes; the page is synced.
      marker.pragma(`user_version = ${process.pid}`);
    } catch (error) {
      marker.close();
      if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new FileWrittenElsewhere(file, pidIn(unsyncedMarker(file)));
      throw error;
    }
    fsyncPath(dirname(file));
    return new UnsyncedMark(file, marker, options);
  }

  /** Syncs the file and its log, then removes the marker: once no unsynced write of the file is left. */
  release(): void {
    clearInterval(this.writeOut);
    for (const path of this.paths()) if (existsSync(path)) fsyncPath(path);
    // The marker goes while the lock is still held: a marked file is always a locked one until its writer ends.
    rmSync(unsyncedMarker(this.file));
    fsyncPath(dirname(this.file));
    this.marker.close();
  }

  private paths(): string[] {
    return [this.file, `${this.file}-wal`];
  }
}

/**
 * Deletes a file (with its log and journal) that a writer left unsynced, so that it is made
 * again from nothing; refuses while its writer still holds the mark (or, for a marker written
 * before markers were databases, the file) locked.
 */
export function discardUnsynced(file: string): boolean {
  const marker = unsyncedMarker(file);
  if (!existsSync(marker)) return false;
  if (isLocked(marker) || isLocked(file)) throw new FileWrittenElsewhere(file, pidIn(marker));
  for (const path of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(path, { force: true });
  rmSync(marker);
  fsyncPath(dirname(file));
  return true;
}
