import Database from 'better-sqlite3';
import { WriterThread } from '../sqlite/writer-thread';
import { Bind } from './sqlite-sql';

/** The rows, batches and writes the SQLite read store and its collections share. */
export const absent = { doc: null, stored: null, pos: 0, columns: null } as const;

/** What the table holds for a document: the document (null when there is none) and its indexed values. */
export interface Stored {
  stored: object | null;
  /** The indexed fields' columns as stored, in declared order; null when there is no row. */
  columns: Bind[] | null;
}

/** A row as the table holds it. */
export interface Row extends Stored {
  doc: object | null;
  pos: number;
}

/** A document as the current batch has it: read once, changed in memory, written at commit. */
export interface Pending extends Row {
  dirty: boolean;
}

/** Where the store's writes go: to its writer thread, or to a refill's. */
export interface Writes {
  /** Hands a write on; answers whether it will change a row, as the caller knows (the batch read what it writes over). */
  run(statement: Database.Statement, args: Bind[], changes: boolean): boolean;
}

export const onThisConnection: Writes = { run: (statement, args) => statement.run(...args).changes > 0 };

/** A row of `sqlite_stat1`: an index's statistics (the table's alone when `idx` is null). */
export interface IndexStatistics {
  tbl: string;
  idx: string | null;
  stat: string;
}

/** The documents a batch touched, per table; null outside `exclusive`. */
export type Batch = Map<string, Map<string, Pending>> | null;

/** A batch handed to the writer thread: its documents and checkpoints, read from here until the thread has committed them. */
export interface HandedBatch {
  batch: Map<string, Map<string, Pending>>;
  checkpoints: Map<string, number>;
  committed: Promise<unknown>;
}

/** What a collection asks of its store. */
export interface CollectionHost {
  batch(): Batch;
  writes(): Writes;
  /** The thread reads must be asked of, to see writes it holds uncommitted: a refill's, or the store's while a batch of it commits; else null. */
  writer(): WriterThread | null;
  refilling(): boolean;
  /** A row of the key is written where the table had none. */
  inserted(table: string, key: string): void;
  /** The document as a batch handed to a writer thread left it, until the thread commits it. */
  handedOn(table: string, key: string): Pending | undefined;
  /** Whether the table surely has no row of this key (see LargestKeys; during a refill, none was written since it was emptied). */
  surelyAbsent(table: string, key: string): boolean;
  /** Runs work as a batch of its own (during a refill, a write outside a batch). */
  inBatch<R>(work: () => Promise<R>): Promise<R>;
}
