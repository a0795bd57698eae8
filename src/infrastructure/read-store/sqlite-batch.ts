import { Bind } from './sqlite-sql';

/** A document as a batch holds it: read once, changed in memory, written when the batch commits. */
export interface Held {
  doc: object | null;
  /** What the file holds (null for no row): the running totals move from it to `doc`. */
  stored: object | null;
  pos: number;
  dirty: boolean;
  /** Added without reading the file (`add`): its write leaves a row or tombstone already there as it is. */
  added?: boolean;
}

/** A write as its SQL and the values bound to it. */
export type Statement = [sql: string, args: Bind[]];

/**
 * Where a batch's writes go: run on the store's connection, answering whether a row changed; or
 * handed on with the batch (a rebuild's), taken to change one (the batch read what it writes over).
 */
export type Writes = (sql: string, args: Bind[]) => boolean;

export const absent: Held = Object.freeze({ doc: null, stored: null, pos: 0, dirty: false });

/** Another connection committed while the batch was made: what it read may be stale, so it is made again. */
export class OtherWriterCommitted extends Error {
  constructor() {
    super('another connection committed to the read store during the batch');
  }
}

/**
 * The work of one `exclusive` call on the SQLite read store: the documents it touched, the
 * collections it emptied and the checkpoints it set, written in one transaction at its end.
 */
export class SqliteBatch {
  private readonly tables = new Map<string, Map<string, Held>>();
  readonly cleared = new Set<string>();
  readonly checkpoints = new Map<string, number>();
  /** Checkpoints reset in this batch: written as they are, where the others only move forward. */
  readonly resets = new Set<string>();

  /** The documents written, as the batch's commit leaves them. */
  readonly written: Array<{ table: string; key: string; doc: object | null; pos: number }> = [];

  constructor(readonly dataVersion: number) {}

  held(table: string): Map<string, Held> {
    let docs = this.tables.get(table);
    if (!docs) this.tables.set(table, (docs = new Map()));
    return docs;
  }

  /** The document the batch holds, without holding one. */
  peek(table: string, key: string): Held | undefined {
    return this.tables.get(table)?.get(key);
  }

  clear(table: string): void {
    this.tables.delete(table);
    this.cleared.add(table);
  }

  /** Whether the table was emptied in this batch and not written yet: its rows are gone. */
  emptied(table: string): boolean {
    return this.cleared.has(table);
  }

  /** Whether the batch changed nothing: it then needs no transaction. */
  get unchanged(): boolean {
    if (this.cleared.size || this.checkpoints.size) return false;
    for (const docs of this.tables.values()) for (const held of docs.values()) if (held.dirty) return false;
    return true;
  }
}
