import Database from 'better-sqlite3';
import { IntegerKeys } from './integer-keys';
import { CommitsElsewhere } from './stored-values-filter';

/**
 * The largest integer key of each table's rows, so that a document with a larger one is known
 * absent without reading the file: new leads and calls, whose ids are drawn in order. A
 * projection looks up every document it writes, and the store's page cache is emptied by each
 * commit of its writer thread, so that lookup read cold pages: about 4 µs of the main thread
 * a lead created.
 *
 * Each table's is read from the file when first asked (a scan of its keys), then raised by
 * every insert of this store, and read again after another writer's commit. It is read only
 * while the store's writes are all committed: the file would lack the others. The store asks
 * only inside a batch, which looked for others' commits as it began and commits only if none
 * came since; a read outside one looks the key up.
 */
export class LargestKeys {
  private readonly largest = new Map<string, number>();

  constructor(
    private readonly db: Database.Database,
    commits: CommitsElsewhere,
    /** Whether every write of the store is committed: the file then holds them all. */
    private readonly allCommitted: () => boolean,
  ) {
    commits.onCommit(() => this.largest.clear());
  }

  /** True when the table surely has no row of the key; false when it may. */
  surelyAbsent(table: string, key: string): boolean {
    const n = IntegerKeys.of(key);
    if (n === null) return false;
    const largest = this.of(table);
    return largest !== undefined && n > largest;
  }

  /** A row of the key is written (committed or not). */
  inserted(table: string, key: string): void {
    const largest = this.largest.get(table);
    const n = IntegerKeys.of(key);
    if (largest !== undefined && n !== null && n > largest) this.largest.set(table, n);
  }

  /** Forgets a table's: it was emptied or made again. */
  forget(table: string): void {
    this.largest.delete(table);
  }

  private of(table: string): number | undefined {
    let largest = this.largest.get(table);
    if (largest === undefined && this.allCommitted()) {
      // Keys that are not integers count as 0 or less here, below every key `surelyAbsent` answers for.
      largest = this.db.prepare<[], number | null>(`SELECT max(CAST(id AS INTEGER)) FROM ${table}`).pluck().get() ?? -1;
      this.largest.set(table, largest);
    }
    return largest;
  }
}
