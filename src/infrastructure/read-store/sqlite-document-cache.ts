import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { roughSize } from '../../shared/rough-size';
import { Held } from './sqlite-batch';
import { dataVersion } from '../sqlite/data-version';

const keyOf = (table: string, key: string) => `${table}\u0000${key}`;

function freezeDeep<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) freezeDeep(inner);
  }
  return value;
}

/**
 * How many documents are kept. Each dial attempt reads its campaign's two report documents
 * besides its lead, call and numbers: with 1,000 campaigns dialing, 4,096 dropped both before
 * the campaign's next turn, and each was read and parsed again (bench/README.md).
 */
const KEPT_DOCUMENTS = 16_384;

/**
 * Stored documents kept parsed: every request reads a few (its token, user, campaign,
 * assistant) between the writes of many others. A document this store writes is kept as its
 * commit left it, and every one is forgotten when another connection has committed to the file.
 * Documents are frozen: every reader shares them.
 */
export class SqliteDocumentCache {
  private readonly rows: LRUCache<string, Held>;
  private version = -1;

  /** `maxBytes`: what the kept documents may weigh together; a lead's variables may weigh a megabyte. */
  constructor(
    private readonly db: () => Database.Database,
    maxBytes = 128 * 1024 * 1024,
  ) {
    this.rows = new LRUCache({ max: KEPT_DOCUMENTS, maxSize: maxBytes, sizeCalculation: (held) => roughSize(held.doc) });
  }

  /** `version`: the file's commit counter when the caller knows it already (a batch read it when it began). */
  get(table: string, key: string, read: () => Held, version = dataVersion(this.db())): Held {
    this.checkVersion(version);
    const id = keyOf(table, key);
    let row = this.rows.get(id);
    if (!row) {
      // An absent document is kept too: a number not on the do-not-call list is asked for at each step of its dial.
      row = freezeDeep(read());
      this.rows.set(id, row);
    }
    return row;
  }

  /** A document as this store's own commit left it: what is written is read back by the next step. */
  remember(table: string, key: string, doc: object | null, pos: number, version: number): void {
    this.checkVersion(version);
    this.rows.set(keyOf(table, key), freezeDeep({ doc, stored: doc, pos, dirty: false }));
  }

  /**
   * The document as stored at `pos`, parsed by `parse` unless kept: a list's rows are the same
   * documents `get` reads, and a row's position names its content. `version`: the file's commit
   * counter, read once for the whole list.
   */
  stored(table: string, key: string, pos: number, parse: () => object, version: number): object {
    this.checkVersion(version);
    const id = keyOf(table, key);
    const kept = this.rows.get(id);
    if (kept?.doc && kept.pos === pos) return kept.doc;
    const doc = freezeDeep(parse());
    this.rows.set(id, { doc, stored: doc, pos, dirty: false });
    return doc;
  }

  forget(table: string, key: string): void {
    this.rows.delete(keyOf(table, key));
  }

  /** Every document is forgotten once another connection has committed to the file (a rebuild's switch among them). */
  private checkVersion(version: number): void {
    if (version === this.version) return;
    this.rows.clear();
    this.version = version;
  }

  clear(): void {
    this.rows.clear();
    this.version = -1;
  }
}
