import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { openSqlite } from '../sqlite/open-sqlite';
import { sqliteFileWith } from '../../testing/sqlite-file';
import { COUNT_COMMIT, OTHER_WRITERS_LOOK_MS, OtherWriters } from './other-writers';

describe('OtherWriters', () => {
  let dir: string;
  let own: Database.Database;
  let elsewhere: Database.Database;
  let writers: OtherWriters;
  let clock = 0;
  let notified: number;
  /** A commit of another connection, counted as every store's writer counts its own; answers the count it left. */
  const commitElsewhere = (): number => elsewhere.transaction(() => elsewhere.prepare<[], number>(COUNT_COMMIT).pluck().get()!)();
  const lookLater = () => {
    clock += OTHER_WRITERS_LOOK_MS;
    writers.lookIfDue();
  };

  beforeEach(() => {
    ({ dir } = sqliteFileWith('other-writers-', ''));
    own = openSqlite(`${dir}/read.db`);
    writers = new OtherWriters(own, () => clock);
    elsewhere = openSqlite(`${dir}/read.db`);
    notified = 0;
    writers.onCommit(() => notified++);
  });
  afterEach(() => {
    own.close();
    elsewhere.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes the commits its store reports for its own, and looks at none while one is on its way', () => {
    writers.commitStarts();
    const count = commitElsewhere();
    lookLater();
    expect(notified).toBe(0);
    writers.committed(count);
    lookLater();
    expect(notified).toBe(0);
  });

  it('calls a commit its store did not report another writer’s, seen at the next look', () => {
    writers.look();
    commitElsewhere();
    writers.lookIfDue();
    expect(notified).toBe(0);
    lookLater();
    expect(notified).toBe(1);
    lookLater();
    expect(notified).toBe(1);
  });

  it('calls another writer’s a commit made between the store’s last look and its own commit', () => {
    commitElsewhere();
    writers.commitStarts();
    writers.committed(commitElsewhere());
    expect(notified).toBe(1);
    lookLater();
    expect(notified).toBe(1);
  });

  it('drops what was kept after a failed commit, and reads the count again at the next look', () => {
    writers.commitStarts();
    writers.commitFailed();
    expect(notified).toBe(1);
    lookLater();
    expect(notified).toBe(1);
    commitElsewhere();
    lookLater();
    expect(notified).toBe(2);
  });

  it('counts its own connection’s commits, so that only others move the count past it', () => {
    own.transaction(() => writers.countOwnCommit())();
    commitElsewhere();
    lookLater();
    expect(notified).toBe(1);
    own.transaction(() => writers.countOwnCommit())();
    lookLater();
    expect(notified).toBe(1);
  });
});
