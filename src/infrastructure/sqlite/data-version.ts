import Database from 'better-sqlite3';
import { prepared } from './prepared';

/** Commit counters read in the callback running now, by connection: forgotten before any other callback runs. */
let seen = new Map<Database.Database, number>();
const forget = () => (seen = new Map());

/**
 * A connection's commit counter: it moves whenever another connection commits to the file. Read
 * once for a callback of the event loop and the promises it leaves due (a request reads several
 * documents and events back to back, each a step of its own): another connection's news reaches
 * this process only through a callback of its own (a request, a response, a timer's poll), and
 * before that one runs Node has run the ticks queued here, which forget the counters.
 */
export function dataVersion(db: Database.Database): number {
  return seen.get(db) ?? freshDataVersion(db);
}

/** The counter read now, whatever was read before: a commit's check that no other connection wrote, or a read that must see what a file read just showed. */
export function freshDataVersion(db: Database.Database): number {
  const version = prepared(db, 'PRAGMA data_version').pluck().get() as number;
  if (seen.size === 0) process.nextTick(forget);
  seen.set(db, version);
  return version;
}
