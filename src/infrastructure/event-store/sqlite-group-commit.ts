import Database from 'better-sqlite3';

interface SharedWrite {
  run: () => unknown;
  /** One statement: SQLite undoes a failed statement by itself, so it needs no savepoint of its own. */
  oneStatement: boolean;
  types: readonly string[];
  /** Told once the write is committed, before its caller is answered. */
  committed?: () => void;
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the embedded event store: the writes of a turn of the event loop wait for the
 * turn's end and commit together in one IMMEDIATE transaction, each in a savepoint of its own, so
 * a refused one leaves the others untouched. (The turn's first write once committed at once, in
 * a transaction of its own: a second path and a commit more each turn, which no figure missed;
 * bench/README.md.)
 */
export class SqliteGroupCommit {
  private shared: SharedWrite[] = [];
  private readonly inSavepoint;
  private readonly groupTx;

  constructor(
    private readonly db: Database.Database,
    /** Told the event types each group committed (none for a group of other writes). */
    private readonly committed: (types: string[]) => void,
    /** Run inside each group's transaction, after its writes, before its commit. */
    lastInTransaction: () => void = () => undefined,
  ) {
    // Called inside `groupTx`, better-sqlite3 runs a transaction function as a savepoint.
    this.inSavepoint = db.transaction((run: () => unknown) => run());
    this.groupTx = db.transaction((writes: SharedWrite[]) => {
      const outcomes = writes.map((write) => {
        try {
          return { ok: true as const, value: write.oneStatement ? write.run() : this.inSavepoint(write.run) };
        } catch (error) {
          // SQLite rolled the whole transaction back (a full disk, for one): the writes after this
          // one would each commit alone, outside it, and then be refused with the rest when the
          // group's COMMIT fails. The group ends here instead, every write of it refused.
          if (!db.inTransaction) throw error;
          return { ok: false as const, error };
        }
      });
      lastInTransaction();
      return outcomes;
    });
  }

  share<T>(run: () => T, types: readonly string[], oneStatement: boolean, committed?: () => void): Promise<T> {
    if (!this.db.open) return Promise.reject(new Error('the event store is closed'));
    return new Promise<T>((resolve, reject) => {
      if (this.shared.length === 0) setImmediate(() => this.commit());
      this.shared.push({ run, oneStatement, types, committed, resolve: resolve as (value: never) => void, reject });
    });
  }

  /** Commits the writes waiting (also at close). */
  commit(): void {
    const writes = this.shared;
    this.shared = [];
    if (writes.length === 0) return;
    let outcomes;
    try {
      outcomes = this.groupTx.immediate(writes);
    } catch (error) {
      for (const write of writes) write.reject(error);
      return;
    }
    const types = new Set<string>();
    outcomes.forEach((outcome, i) => {
      if (!outcome.ok) return writes[i].reject(outcome.error);
      writes[i].committed?.();
      for (const type of writes[i].types) types.add(type);
      writes[i].resolve(outcome.value as never);
    });
    this.committed([...types]);
  }
}
