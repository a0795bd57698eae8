import { Logger } from '@nestjs/common';
import { Worker } from 'node:worker_threads';

/** How often the worker copies what the logs gained back into their database files. */
const INTERVAL_MS = 100;

// Plain JavaScript, run by Node as the worker's script: the same under the compiled build and the tests.
const WORKER_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const dbs = workerData.files.map((file) => {
  try {
    const db = new Database(file, { fileMustExist: true });
    db.pragma('busy_timeout = 0');
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (error) {
    // The driver's own errors reach the main thread without their message.
    throw new Error(file + ': ' + error.message);
  }
});
const timer = setInterval(() => {
  for (const db of dbs) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // A file held alone for a while (a rebuild) refuses; the next turn tries again.
    }
  }
}, workerData.intervalMs);
parentPort.postMessage('open');
parentPort.once('message', () => {
  clearInterval(timer);
  for (const db of dbs) db.close();
  parentPort.close();
});
`;

/**
 * Copies the pages of SQLite files' write-ahead logs back into the files from a worker thread,
 * with a connection of its own, so the writing connection's own checkpoint, still made when its
 * log reaches its limit, finds most pages copied and synced already. That checkpoint ran inside
 * a commit on the event loop: copying 8,000 pages and syncing both files held every request.
 */
export class WalCheckpointer {
  private readonly logger = new Logger('WalCheckpointer');
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  /** Settles once the worker has its connections open, or has failed to open them. */
  readonly started: Promise<void>;

  constructor(files: string[], intervalMs = INTERVAL_MS) {
    const worker = new Worker(WORKER_SCRIPT, { eval: true, workerData: { driver: require.resolve('better-sqlite3'), files, intervalMs } });
    // Without it, the writing connections still checkpoint, on the event loop as before.
    worker.on('error', (error) => this.logger.warn(`Checkpoints are back on the writing connections: ${error.message}`));
    worker.unref();
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    this.started = Promise.race([new Promise<void>((resolve) => worker.once('message', () => resolve())), this.exited]);
    this.worker = worker;
  }

  /** Closes the worker's connections: call it before the stores close theirs, so theirs is the last. */
  async stop(): Promise<void> {
    this.worker.postMessage('stop');
    await this.exited;
  }
}
