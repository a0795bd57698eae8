import { Worker } from 'node:worker_threads';
import { Held, SqliteBatch, Statement } from './sqlite-batch';

// Plain JavaScript, run by Node as the worker's script: the same under the compiled build and the tests.
const WORKER_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = OFF');
db.pragma('busy_timeout = 10000');
const prepared = [];
const write = db.transaction((statements) => {
  for (const [sql, args] of statements) prepared[sql].run(...args);
});
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    for (const sql of message.texts) prepared.push(db.prepare(sql));
    write(message.statements);
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: error.message });
  }
});
`;

/** Batches handed on and not yet committed, at most: the next waits for the oldest. */
const AHEAD = 2;

/**
 * Writes a rebuild's batches on a thread of its own, with a connection of its own, while the
 * next batch is made: a rebuild is bound by one core, and SQLite's inserts take half of it.
 * Batches are committed in the order they are handed on; a batch's documents are read from it
 * until its commit. Only a rebuild's file uses it: nothing else writes that file meanwhile.
 */
export class RebuildWriter {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private readonly handed: Array<{ batch: SqliteBatch; committed: Promise<void> }> = [];
  private readonly acks = new Map<number, (error?: string) => void>();
  private sent = 0;
  /** Each statement's text is sent once; after that, its number in this list. */
  private readonly texts = new Map<string, number>();
  private failure: Error | null = null;

  constructor(file: string) {
    this.worker = new Worker(WORKER_SCRIPT, { eval: true, workerData: { driver: require.resolve('better-sqlite3'), file } });
    this.worker.on('message', ({ id, error }: { id: number; error?: string }) => this.acks.get(id)?.(error));
    this.worker.on('error', (error) => this.fail(error));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Hands a batch's statements on; waits while too many are ahead of the thread. */
  async hand(batch: SqliteBatch, statements: Statement[]): Promise<void> {
    if (this.failure) throw this.failure;
    const id = this.sent++;
    const committed = new Promise<void>((resolve) =>
      this.acks.set(id, (error) => {
        this.acks.delete(id);
        this.handed.splice(
          this.handed.findIndex((h) => h.batch === batch),
          1,
        );
        if (error) this.fail(new Error(error));
        resolve();
      }),
    );
    this.handed.push({ batch, committed });
    const texts: string[] = [];
    const numbered = statements.map(([sql, args]) => {
      let n = this.texts.get(sql);
      if (n === undefined) {
        this.texts.set(sql, (n = this.texts.size));
        texts.push(sql);
      }
      return [n, args];
    });
    this.worker.postMessage({ id, texts, statements: numbered });
    while (this.handed.length > AHEAD) await this.handed[0].committed;
    if (this.failure) throw this.failure;
  }

  /** The document as the newest batch not yet committed left it. */
  held(table: string, key: string): Held | undefined {
    for (let i = this.handed.length - 1; i >= 0; i--) {
      const held = this.handed[i].batch.peek(table, key);
      if (held) return held;
    }
    return undefined;
  }

  /** Waits until every batch handed on is committed; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.handed.map((h) => h.committed));
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    this.worker.postMessage('close');
    await this.exited;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const ack of [...this.acks.values()]) ack();
  }
}
