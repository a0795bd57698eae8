import Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * A rebuild of the SQLite read store writes a new file beside the store, then renames it over the
 * store: a rebuild cut short leaves the store as it was, and a file named after a process that
 * has ended is a leftover, removed at the next open.
 */
const SUFFIX = '.rebuild-';

export const rebuildFileOf = (file: string): string => `${file}${SUFFIX}${process.pid}`;

/** The store is being rebuilt by another process: opening it now would read a file about to be replaced. */
export class StoreBeingRebuilt extends Error {
  constructor(file: string, pid: number) {
    super(`${basename(file)} is being rebuilt by process ${pid}; open it once that process has ended`);
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Throws when another live process rebuilds the store; removes what rebuilds that ended left. */
export function refuseWhileRebuilt(file: string): void {
  const prefix = `${basename(file)}${SUFFIX}`;
  for (const entry of existsSync(dirname(file)) ? readdirSync(dirname(file)) : []) {
    const pid = entry.startsWith(prefix) ? Number(entry.slice(prefix.length)) : NaN;
    if (!Number.isInteger(pid)) continue;
    if (pid !== process.pid && alive(pid)) throw new StoreBeingRebuilt(file, pid);
    removeSqliteFile(join(dirname(file), entry));
  }
}

export function removeSqliteFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}

/**
 * Copies into the new file the tables the rebuild keeps (every table but the refilled ones),
 * with their indexes; the refilled tables are left for the rebuild to make.
 */
export function copyKeptTables(live: Database.Database, fresh: Database.Database, refilled: Set<string>): void {
  const schema = live
    .prepare<[], { type: string; name: string; tbl_name: string; sql: string }>(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index'",
    )
    .all()
    .filter((entry) => !refilled.has(entry.tbl_name));
  const made = new Set(fresh.prepare('SELECT name FROM sqlite_master').pluck().all() as string[]);
  fresh.prepare('ATTACH DATABASE ? AS live').run(live.name);
  try {
    fresh.transaction(() => {
      for (const { type, name, sql } of schema) {
        if (type !== 'table') continue;
        if (!made.has(name)) fresh.exec(sql);
        fresh.exec(`INSERT INTO main."${name}" SELECT * FROM live."${name}"`);
      }
    })();
  } finally {
    fresh.exec('DETACH DATABASE live');
  }
  for (const { type, name, sql } of schema) if (type === 'index' && !made.has(name)) fresh.exec(sql);
}

/**
 * Makes the new file the store: written out, then renamed over the store once its connection is
 * closed. The last connection to close removes the store's log; a log still there means another
 * connection holds the store, and the rebuild is not swapped in (that log would be read into the new file).
 */
export function swapIn(fresh: Database.Database, freshFile: string, live: Database.Database, file: string): void {
  fresh.pragma('wal_checkpoint(TRUNCATE)');
  fresh.close();
  syncFile(freshFile);
  live.close();
  if (existsSync(`${file}-wal`)) throw new Error(`Another connection holds ${basename(file)}: stop it, then rebuild again`);
  rmSync(`${file}-shm`, { force: true });
  renameSync(freshFile, file);
  syncFile(dirname(file));
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
