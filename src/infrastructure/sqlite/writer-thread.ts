import { Worker } from 'node:worker_threads';
import { CHECKPOINT_PAGES } from './open-sqlite';

export type Bind = string | number | null;

/** What a statement asked of the writer is, to the caller: its SQL text and the values it binds. */
export interface Write {
  sql: string;
  args: Bind[];
}

type Reply = { seq: number; value?: unknown; error?: string };

/**
 * Queued writes are sent once this many wait, without waiting for the commit: the thread
 * starts on a batch while it is still being made, and the values sent die young instead of
 * outliving collections of the young generation (a rebuild's batch queues thousands).
 */
export const SEND_EVERY = 256;

// Plain JavaScript, run by Node as the worker's script: the same under the compiled build and the tests.
const WORKER_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 10000');
if (workerData.synced) {
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = ' + workerData.checkpointPages);
} else db.pragma('synchronous = OFF');
const statements = [];
const byText = new Map();
const prepared = (sql) => byText.get(sql) ?? byText.set(sql, db.prepare(sql)).get(sql);
let failure = null;
const reply = (seq, value) => parentPort.postMessage(failure ? { seq, error: failure } : { seq, value });
function apply(message) {
  switch (message.op) {
    case 'prepare':
      statements[message.id] = db.prepare(message.sql);
      return;
    case 'run': {
      if (!db.inTransaction) db.exec('BEGIN IMMEDIATE');
      const { ids, counts, args } = message;
      for (let i = 0, at = 0; i < ids.length; at += counts[i], i++) statements[ids[i]].run(...args.slice(at, at + counts[i]));
      return;
    }
    case 'commit': {
      if (!db.inTransaction) return reply(message.seq, null);
      const guard = message.guard;
      if (!guard) {
        db.exec('COMMIT');
        return reply(message.seq, null);
      }
      const found = prepared(guard.read).pluck().get();
      if (found !== guard.expected) {
        db.exec('ROLLBACK');
        return reply(message.seq, { conflict: found });
      }
      const count = prepared(guard.count).pluck().get();
      db.exec('COMMIT');
      return reply(message.seq, { count });
    }
    case 'rollback':
      if (db.inTransaction) db.exec('ROLLBACK');
      return;
    case 'query': {
      const statement = statements[message.id];
      return reply(message.seq, message.all ? statement.all(...message.args) : statement.get(...message.args));
    }
  }
}
parentPort.on('message', (message) => {
  if (message.op === 'close') {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.close();
    parentPort.postMessage({ seq: message.seq, ...(failure ? { error: failure } : {}) });
    return parentPort.close();
  }
  if (failure) return message.seq === undefined ? undefined : reply(message.seq);
  try {
    apply(message);
  } catch (error) {
    failure = error.message;
    if (db.inTransaction) db.exec('ROLLBACK');
    if (message.seq !== undefined) reply(message.seq);
  }
});
`;

/**
 * A commit made only if a value the file holds is still the one expected (read and counted
 * under the transaction's write lock): what the writes were made from is then still so.
 */
export interface CommitGuard {
  /** A statement answering one value: the one expected. */
  read: string;
  expected: number;
  /** A statement moving the value on, run with the commit and answering the new value. */
  count: string;
}

/** A guarded commit's outcome: made, with the value counted, or refused, with the value found. */
export type GuardedCommit = { count: number } | { conflict: number };

/** How a writer's commits reach the disk. */
export interface WriterThreadOptions {
  /**
   * Synced as the stores' own connections are (`synchronous = NORMAL` in WAL mode: a commit
   * survives the process's crash, the last ones may not survive the machine's). Otherwise not
   * synced at all (`synchronous = OFF`): whoever starts it marks the file as unsynced first.
   */
  synced?: boolean;
}

/**
 * A connection of its own on a worker thread that writes a file in the order it is told:
 * statements run inside a transaction begun by the first of them, until `commit`. The caller
 * goes on with its own work meanwhile; only a commit, a query and `close` answer.
 *
 * The first failure ends its work: the open transaction is rolled back, and every answer from
 * then on (the pending commit, later queries, `close`) rejects with that failure.
 */
export class WriterThread {
  private readonly worker: Worker;
  private readonly ids = new Map<string, number>();
  private readonly replies = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private seq = 0;
  private queued: { ids: number[]; counts: number[]; args: Bind[] } = { ids: [], counts: [], args: [] };
  private readonly exited: Promise<void>;
  /** Set once the thread has ended: what is asked of it then fails at once. */
  private ended: Error | null = null;
  private firstFailure: Error | null = null;

  constructor(file: string, options: WriterThreadOptions = {}) {
    this.worker = new Worker(WORKER_SCRIPT, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file, synced: options.synced ?? false, checkpointPages: CHECKPOINT_PAGES },
    });
    this.worker.on('message', ({ seq, value, error }: Reply) => {
      const waiting = this.replies.get(seq)!;
      this.replies.delete(seq);
      if (error === undefined) return waiting.resolve(value);
      this.firstFailure ??= new Error(`Writing ${file} failed: ${error}`);
      waiting.reject(this.firstFailure);
    });
    this.exited = new Promise((resolve) => {
      this.worker.once('error', (error) => this.failAll(error));
      this.worker.once('exit', () => {
        this.ended = new Error(`The writer of ${file} has stopped`);
        this.failAll(this.ended);
        resolve();
      });
    });
  }

  /** The first failure of its writes, once the thread has answered one. */
  get failure(): Error | null {
    return this.firstFailure;
  }

  /** Queues a write into the open transaction; it is sent with the next commit, query or `send`, or once `SEND_EVERY` are queued. */
  run({ sql, args }: Write): void {
    this.queued.ids.push(this.idOf(sql));
    this.queued.counts.push(args.length);
    for (const arg of args) this.queued.args.push(arg);
    if (this.queued.ids.length >= SEND_EVERY) this.send();
  }

  /** Sends the writes queued so far, to run in the open transaction. */
  send(): void {
    if (!this.queued.ids.length) return;
    this.worker.postMessage({ op: 'run', ...this.queued });
    this.queued = { ids: [], counts: [], args: [] };
  }

  /** Commits the open transaction; settles once it has. */
  commit(): Promise<void>;
  /** Commits the open transaction if the guard holds, else rolls it back; answers null when there was none. */
  commit(guard: CommitGuard): Promise<GuardedCommit | null>;
  commit(guard?: CommitGuard): Promise<GuardedCommit | null | void> {
    this.send();
    return this.ask({ op: 'commit', guard }) as Promise<GuardedCommit | null>;
  }

  /** Drops the writes queued and the open transaction. */
  rollback(): void {
    this.queued = { ids: [], counts: [], args: [] };
    this.worker.postMessage({ op: 'rollback' });
  }

  /** Reads through the writer's connection, after every write sent before it (its open transaction's too). */
  query<T>(sql: string, args: Bind[], all: true): Promise<T[]>;
  query<T>(sql: string, args: Bind[], all: false): Promise<T | undefined>;
  query(sql: string, args: Bind[], all: boolean): Promise<unknown> {
    this.send();
    return this.ask({ op: 'query', id: this.idOf(sql), args, all });
  }

  /** Rolls back what was not committed, closes the connection and ends the thread; rejects with its first failure. */
  async close(): Promise<void> {
    const closed = this.ask({ op: 'close' });
    await closed.finally(() => this.exited);
  }

  private idOf(sql: string): number {
    let id = this.ids.get(sql);
    if (id === undefined) {
      this.ids.set(sql, (id = this.ids.size));
      this.worker.postMessage({ op: 'prepare', id, sql });
    }
    return id;
  }

  private ask(message: object): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const seq = this.seq++;
    return new Promise((resolve, reject) => {
      this.replies.set(seq, { resolve, reject });
      this.worker.postMessage({ ...message, seq });
    });
  }

  private failAll(error: Error): void {
    for (const waiting of this.replies.values()) waiting.reject(error);
    this.replies.clear();
  }
}
