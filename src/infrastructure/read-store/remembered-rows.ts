import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/** How late, at most, a get outside a write transaction sees another process's commit. */
export const OTHER_WRITERS_LOOK_MS = 1;

const keyOf = (table: string, key: string) => `${table}\u0000${key}`;

function freezeDeep<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) freezeDeep(inner);
  }
  return value;
}

/**
 * Stored rows of the collections declared `cached` (few documents, read on every request:
 * users, tokens, campaigns, assistants), kept parsed so a get reads neither SQLite nor JSON.
 * A row is forgotten when this connection writes its document, and every row when another
 * connection (the CLI, another process) has committed to the file: `PRAGMA data_version`
 * tells, looked at when a write transaction begins, and otherwise at most every
 * `OTHER_WRITERS_LOOK_MS`. Rows are frozen: they are shared by every reader.
 */
export class RememberedRows<Row extends { doc: object | null }> {
  private readonly rows: LRUCache<string, Row>;
  private readonly dataVersion: Database.Statement<[], number>;
  private version: number | undefined;
  private lookedAt = -Infinity;

  constructor(
    db: Database.Database,
    private readonly now: () => number = () => performance.now(),
    capacity = 4096,
  ) {
    this.rows = new LRUCache({ max: capacity });
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Forgets every row if another connection has committed since the last look. */
  lookForOtherWriters(): void {
    this.lookedAt = this.now();
    const version = this.dataVersion.get();
    if (this.version !== undefined && version !== this.version) this.rows.clear();
    this.version = version;
  }

  get(table: string, key: string): Row | undefined {
    if (this.now() - this.lookedAt >= OTHER_WRITERS_LOOK_MS) this.lookForOtherWriters();
    return this.rows.get(keyOf(table, key));
  }

  /** Keeps a row read from the file; a missing document is not kept, so its creation needs no notice. */
  remember(table: string, key: string, row: Row): void {
    if (row.doc !== null) this.rows.set(keyOf(table, key), freezeDeep(row));
  }

  forget(table: string, key: string): void {
    this.rows.delete(keyOf(table, key));
  }

  forgetTable(table: string): void {
    const prefix = keyOf(table, '');
    for (const key of [...this.rows.keys()]) if (key.startsWith(prefix)) this.rows.delete(key);
  }
}
