import Database from 'better-sqlite3';

/** How late, at most, a read outside a write transaction sees another process's commit. */
export const OTHER_WRITERS_LOOK_MS = 1;

/**
 * Counts the commits that change documents, whoever makes them: every write transaction of a
 * store's writer thread runs it, and so does a change of tables on the store's own connection.
 * It tells this store's commits from the others', which `PRAGMA data_version` cannot.
 */
export const COUNT_COMMIT = 'UPDATE store_commits SET n = n + 1 RETURNING n';
export const READ_COMMIT_COUNT = 'SELECT n FROM store_commits';

/**
 * Tells what this store keeps in memory (parsed rows, filters of stored values) that another
 * writer (the CLI, another process, a refill's writer thread) has committed to the file:
 * `PRAGMA data_version` changes then, and the commit count has moved past this store's own
 * commits. Looked at when a write transaction begins, and otherwise at most every
 * `OTHER_WRITERS_LOOK_MS`, as the version is read under a lock that costs about what a lookup
 * of one row does.
 *
 * The store's own writes go through a writer thread, a connection of their own, so its commits
 * change the version too: each reports the count it left (`committed`), and a change that
 * count explains is the store's own. While one of its commits is on its way, looks wait for
 * it: the count would be one ahead of the last one reported.
 */
export class OtherWriters {
  private readonly dataVersion: Database.Statement<[], number>;
  private readonly commitCount: Database.Statement<[], number>;
  private readonly countCommit: Database.Statement<[], number>;
  private version: number;
  /** The commit count what this store keeps in memory agrees with. */
  private seen: number;
  private committing = false;
  private lookedAt = -Infinity;
  private readonly listeners: Array<() => void> = [];

  constructor(
    db: Database.Database,
    private readonly now: () => number = () => performance.now(),
  ) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS store_commits (id INTEGER PRIMARY KEY CHECK (id = 0), n INTEGER NOT NULL);
      INSERT INTO store_commits (id, n) VALUES (0, 0) ON CONFLICT DO NOTHING;
    `);
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.commitCount = db.prepare<[], number>(READ_COMMIT_COUNT).pluck();
    this.countCommit = db.prepare<[], number>(COUNT_COMMIT).pluck();
    this.seen = this.commitCount.get()!;
    this.version = this.dataVersion.get()!;
  }

  /** The commit count what this store keeps in memory agrees with: a batch made from it commits only if the file's is still that. */
  get seenCount(): number {
    return this.seen;
  }

  /** Called whenever a look finds another writer's commit. */
  onCommit(listener: () => void): void {
    this.listeners.push(listener);
  }

  look(): void {
    this.lookedAt = this.now();
    const version = this.dataVersion.get()!;
    if (version === this.version) return;
    this.version = version;
    const count = this.commitCount.get()!;
    if (count === this.seen) return;
    this.seen = count;
    this.notify();
  }

  /** Looks unless the last look was less than `OTHER_WRITERS_LOOK_MS` ago, or a commit of this store is on its way. */
  lookIfDue(): void {
    if (!this.committing && this.now() - this.lookedAt >= OTHER_WRITERS_LOOK_MS) this.look();
  }

  /** This store's writer thread is committing: looks wait until `committed`. */
  commitStarts(): void {
    this.committing = true;
  }

  /**
   * This store's writer committed, leaving the count at `count` (null: it had nothing to
   * commit). A count more than one past the last one seen means another writer committed in
   * between.
   */
  committed(count: number | null): void {
    this.committing = false;
    if (count !== null) this.ownCommit(count);
  }

  /** This store's commit failed or was refused: what was kept for its writes is dropped, and the next look reads the count again. */
  commitFailed(): void {
    this.committing = false;
    this.version = NaN;
    this.notify();
  }

  /** Counts a commit made on this connection, inside its transaction: other stores sharing the file see it. */
  countOwnCommit(): void {
    this.ownCommit(this.countCommit.get()!);
  }

  private ownCommit(count: number): void {
    const others = count !== this.seen + 1;
    this.seen = count;
    if (others) this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
