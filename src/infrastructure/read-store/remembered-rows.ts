import { LRUCache } from 'lru-cache';
import { OtherWriters } from './other-writers';

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
 * A row is forgotten when this store writes its document, and every row when another writer
 * (not this store's writer thread) has committed to the file (see OtherWriters). Rows are
 * frozen: they are shared by every reader.
 */
export class RememberedRows<Row extends { doc: object | null }> {
  private readonly rows: LRUCache<string, Row>;

  constructor(
    private readonly otherWriters: OtherWriters,
    capacity = 4096,
  ) {
    this.rows = new LRUCache({ max: capacity });
    otherWriters.onCommit(() => this.rows.clear());
  }

  get(table: string, key: string): Row | undefined {
    this.otherWriters.lookIfDue();
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
