#!/usr/bin/env node
// Builds dist/ from src/ with the TypeScript compiler, safely beside running services and CLI
// calls: under a lock (one build at a time), into a folder of its own under .builds/; dist is a
// link that is switched to it in one rename once it is complete, so nobody ever starts from half
// a build or from none. The last few builds are kept: a running service loads its modules from
// the build it started with.
//
//   node scripts/build.js              build now
//   node scripts/build.js --if-stale   build only when a source is newer than the last build
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');
const builds = path.join(root, '.builds');
const KEEP_BUILDS = 3;
const stamp = path.join(dist, '.built-at');
const lock = path.join(root, '.build.lock');
const SOURCES = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
const LOCK_WAIT_MS = 5 * 60_000;
/** Files the compiler does not copy: served as they are (the dashboard's page, scripts and styles). */
const STATIC_FOLDERS = ['dashboard/public'];

function newestSource(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestSource(path.join(entry, child)));
  return newest;
}

function isStale() {
  if (!fs.existsSync(stamp)) return true;
  const builtAt = Number(fs.readFileSync(stamp, 'utf8'));
  return !(builtAt > 0) || SOURCES.some((entry) => newestSource(entry) > builtAt);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The pid a lock names; 0 while its holder has not written it yet, null once the lock is gone. */
function holderOf(lock) {
  try {
    return Number(fs.readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }));
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** mkdir is atomic: whoever creates the folder holds the lock; a folder left by a dead process is taken over. */
function withLock(work) {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = holderOf(lock);
      if (holder === null) continue; // the holder let go meanwhile: try again
      if (holder && !alive(holder)) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`another build (process ${holder}) still holds ${lock}`);
      else sleep(100);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function build() {
  let tsc;
  try {
    tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
  } catch {
    throw new Error('dist/ is older than src/ and TypeScript is not installed: run npm install (with dev dependencies) first');
  }
  const startedAt = Date.now();
  const id = `${startedAt}-${process.pid}`;
  const next = path.join(builds, id);
  fs.mkdirSync(builds, { recursive: true });
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch {
    fs.rmSync(next, { recursive: true, force: true });
    throw new Error('the TypeScript compiler refused the sources (see above)');
  }
  for (const folder of STATIC_FOLDERS) fs.cpSync(path.join(root, 'src', folder), path.join(next, folder), { recursive: true });
  fs.writeFileSync(path.join(next, '.built-at'), String(startedAt));
  // A dist/ left by an older way of building is a folder: it moves aside once, as a build of its own.
  if (fs.existsSync(dist) && !fs.lstatSync(dist).isSymbolicLink()) fs.renameSync(dist, path.join(builds, `0-${process.pid}`));
  const link = path.join(root, `.dist-${process.pid}`);
  fs.rmSync(link, { force: true });
  fs.symlinkSync(path.join('.builds', id), link);
  fs.renameSync(link, dist); // replaces the old link in one step
  const older = fs.readdirSync(builds).filter((name) => BUILD_NAME.test(name) && name !== id);
  for (const old of older.sort(newestFirst).slice(KEEP_BUILDS - 1)) fs.rmSync(path.join(builds, old), { recursive: true, force: true });
}

/** `<started at>-<pid>`: a folder named otherwise under .builds/ is not one of ours, and is left. */
const BUILD_NAME = /^\d+-\d+$/;
const newestFirst = (a, b) => Number(b.split('-')[0]) - Number(a.split('-')[0]);

function main() {
  const ifStale = process.argv.includes('--if-stale');
  if (!fs.existsSync(path.join(root, 'src'))) return; // an install before the sources are in place (a container build)
  if (ifStale && !isStale()) return;
  withLock(() => {
    if (!ifStale || isStale()) build();
  });
}

try {
  main();
} catch (error) {
  process.stderr.write(`build failed: ${error.message}\n`);
  process.exit(1);
}
