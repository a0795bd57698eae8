import { spawn } from 'node:child_process';
import { unsyncedMarker } from '../infrastructure/sqlite/unsynced-mark';

/**
 * A child process writing a SQLite file as a refill does: the file marked unsynced first (the
 * marker a database it holds locked, its pid inside), then written in WAL without syncs,
 * mid-transaction; it then dies at once or holds on until killed. Its stdout says 'writing'
 * once the file is marked and written to.
 */
export function writerInAnotherProcess(file: string, then: 'die' | 'hold') {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const marker = new Database(${JSON.stringify(unsyncedMarker(file))});
    marker.pragma('locking_mode = EXCLUSIVE'); marker.pragma('journal_mode = MEMORY'); marker.pragma('user_version = ' + process.pid);
    const db = new Database(${JSON.stringify(file)});
    db.pragma('journal_mode = WAL'); db.pragma('synchronous = OFF');
    db.exec('BEGIN'); db.exec('CREATE TABLE written_elsewhere (x); INSERT INTO written_elsewhere VALUES (1)');
    process.stdout.write('writing');
    if (${JSON.stringify(then)} === 'die') process.kill(process.pid, 'SIGKILL'); else setInterval(() => {}, 1000);`;
  return spawn(process.execPath, ['-e', script]);
}

/** Resolves once the writer holds the file. */
export const writing = (writer: ReturnType<typeof writerInAnotherProcess>) => new Promise((resolve) => writer.stdout.once('data', resolve));
