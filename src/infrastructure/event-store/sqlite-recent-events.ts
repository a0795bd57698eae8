import { EventRow } from './sqlite-event-row';

/**
 * The rows this connection appended last, kept while no other connection has committed to the
 * file: a reactor woken by an append reads the head and the few events after its position, several
 * times a dial attempt, and each read was a read transaction of its own. Whether another
 * connection committed is told by the file's commit counter (`PRAGMA data_version`), read inside
 * this connection's own commit and again at each read: one statement instead of the read. A row
 * kept is the row stored: rows are not rewritten while a service appends (the upgrades of a log
 * an earlier version wrote run before it starts, and touch only that version's rows).
 */
export class SqliteRecentEvents {
  private rows: EventRow[] = [];
  private start = 0;
  private chars = 0;
  /** The commit counter as this connection's last commit left it; null: nothing is known. */
  private version: number | null = null;

  constructor(
    private readonly maxRows = 4096,
    /** What the kept rows' texts may weigh together: a lead's variables may weigh a megabyte. */
    private readonly maxChars = 16 * 1024 * 1024,
  ) {}

  /**
   * The rows one commit of this connection wrote, in position order, and the commit counter read
   * inside its transaction (no other connection commits while it holds the write lock).
   */
  committed(rows: EventRow[], version: number): void {
    const continues = rows.length > 0 ? this.size > 0 && rows[0][0] === this.last + 1 : version === this.version;
    if (!continues) this.clear();
    // One commit's positions follow each other (it holds the write lock); kept only if they do.
    if (rows.some((row, i) => i > 0 && row[0] !== rows[i - 1][0] + 1)) return this.clear();
    if (rows.length === 0 && this.size === 0) return;
    for (const row of rows) {
      this.rows.push(row);
      this.chars += row[6].length + row[7].length;
    }
    this.version = version;
    while (this.size > this.maxRows || (this.size > 1 && this.chars > this.maxChars)) {
      const [, , , , , , data, metadata] = this.rows[this.start++];
      this.chars -= data.length + metadata.length;
    }
    if (this.start > this.maxRows) {
      this.rows = this.rows.slice(this.start);
      this.start = 0;
    }
  }

  /** The store's head, when no other connection has committed since (`version`: the counter now); else null. */
  head(version: number): number | null {
    return this.knows(version) ? this.last : null;
  }

  /** The rows after `after` (of `types`), up to `max`, when they are all here; else null. */
  after(after: number, max: number, types: ReadonlySet<string> | undefined, version: number): EventRow[] | null {
    if (!this.knows(version) || after < this.rows[this.start][0] - 1) return null;
    const out: EventRow[] = [];
    // Positions are consecutive here: the first row after `after` is found by arithmetic.
    for (let i = this.start + Math.max(0, after + 1 - this.rows[this.start][0]); i < this.rows.length && out.length < max; i++) {
      if (!types || types.has(this.rows[i][4])) out.push(this.rows[i]);
    }
    return out;
  }

  clear(): void {
    this.rows = [];
    this.start = 0;
    this.chars = 0;
    this.version = null;
  }

  private knows(version: number): boolean {
    return this.version === version && this.size > 0;
  }

  private get size(): number {
    return this.rows.length - this.start;
  }

  private get last(): number {
    return this.rows[this.rows.length - 1][0];
  }
}
