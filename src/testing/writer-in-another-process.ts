import { spawn } from 'node:child_process';

/**
 * A child process writing a SQLite file as `writeAlone` does (exclusive lock, rollback journal, no
 * syncs), mid-transaction; it then dies at once or holds the file until killed. Its stdout says
 * 'writing' once the file is locked.
 */
export function writerInAnotherProcess(file: string, then: 'die' | 'hold') {
  const script = `
    const db = new (require(${JSON.stringify(require.resolve('better-sqlite3'))}))(${JSON.stringify(file)});
    db.pragma('locking_mode = EXCLUSIVE'); db.pragma('journal_mode = DELETE'); db.pragma('synchronous = OFF');
    db.exec('BEGIN'); db.exec('CREATE TABLE written_elsewhere (x); INSERT INTO written_elsewhere VALUES (1)');
    process.stdout.write('writing');
    if (${JSON.stringify(then)} === 'die') process.kill(process.pid, 'SIGKILL'); else setInterval(() => {}, 1000);`;
  return spawn(process.execPath, ['-e', script]);
}

/** Resolves once the writer holds the file. */
export const writing = (writer: ReturnType<typeof writerInAnotherProcess>) => new Promise((resolve) => writer.stdout.once('data', resolve));
