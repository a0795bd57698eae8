import Database from 'better-sqlite3';

/** How late, at most, a read outside a write transaction sees another process's commit. */
export const OTHER_WRITERS_LOOK_MS = 1;

/**
 * Tells what this connection keeps in memory (parsed rows, filters of stored values) that
 * another connection (the CLI, another process, a refill's writer thread) has committed to
 * the file: `PRAGMA data_version` changes then. Looked at when a write transaction begins,
 * and otherwise at most every `OTHER_WRITERS_LOOK_MS`, as the version is read under a lock
 * that costs about what a lookup of one row does.
 */
export class OtherWriters {
  private readonly dataVersion: Database.Statement<[], number>;
  private version: number | undefined;
  private lookedAt = -Infinity;
  private readonly listeners: Array<() => void> = [];

  constructor(
    db: Database.Database,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Called whenever a look finds another connection's commit. */
  onCommit(listener: () => void): void {
    this.listeners.push(listener);
  }

  look(): void {
    this.lookedAt = this.now();
    const version = this.dataVersion.get();
    const changed = this.version !== undefined && version !== this.version;
    this.version = version;
    if (changed) for (const listener of this.listeners) listener();
  }

  /** Looks unless the last look was less than `OTHER_WRITERS_LOOK_MS` ago. */
  lookIfDue(): void {
    if (this.now() - this.lookedAt >= OTHER_WRITERS_LOOK_MS) this.look();
  }
}
