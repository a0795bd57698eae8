import Database from 'better-sqlite3';
import { KeyStore, StoredDataKey } from '../../shared/ports/key-store.port';

/**
 * Data keys in `DATA_DIR/keys.db`, apart from the event and read stores, one per person called:
 * a write-ahead log (adding a key at each new number costs no sync of its own) emptied into the
 * file and cut to nothing after each destruction, and `secure_delete`, so a destroyed key's bytes
 * are overwritten in the file itself, not left in a free page or the log.
 */
export class SqliteKeyStore implements KeyStore {
  private readonly db: Database.Database;
  private readonly statements: {
    get: Database.Statement<[string], StoredDataKey>;
    getMany: Database.Statement<[string], StoredDataKey>;
    add: Database.Statement<[StoredDataKey]>;
  };

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('secure_delete = ON');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS data_keys (id TEXT PRIMARY KEY, master_id TEXT NOT NULL, wrapped TEXT NOT NULL, purpose TEXT NOT NULL, created_at TEXT NOT NULL)',
    );
    // A key is read or added at each new number: compiled once.
    this.statements = {
      get: this.db.prepare('SELECT * FROM data_keys WHERE id = ?'),
      getMany: this.db.prepare('SELECT * FROM data_keys WHERE id IN (SELECT value FROM json_each(?))'),
      add: this.db.prepare(
        'INSERT OR IGNORE INTO data_keys (id, master_id, wrapped, purpose, created_at) VALUES (@id, @master_id, @wrapped, @purpose, @created_at)',
      ),
    };
  }

  async all(): Promise<StoredDataKey[]> {
    return this.db.prepare('SELECT * FROM data_keys ORDER BY created_at, id').all() as StoredDataKey[];
  }

  async allBut(purposes: readonly string[]): Promise<StoredDataKey[]> {
    return this.db
      .prepare('SELECT * FROM data_keys WHERE purpose NOT IN (SELECT value FROM json_each(?)) ORDER BY created_at, id')
      .all(JSON.stringify(purposes)) as StoredDataKey[];
  }

  async masterIds(): Promise<string[]> {
    return this.db.prepare("SELECT DISTINCT master_id FROM data_keys WHERE master_id != ''").pluck().all() as string[];
  }

  async get(id: string): Promise<StoredDataKey | null> {
    return this.statements.get.get(id) ?? null;
  }

  async getMany(ids: readonly string[]): Promise<StoredDataKey[]> {
    return ids.length ? this.statements.getMany.all(JSON.stringify(ids)) : [];
  }

  private pending: Array<{ key: StoredDataKey; done: (stored: StoredDataKey) => void; failed: (error: unknown) => void }> = [];

  /** Keys added within one turn of the event loop (a burst of new leads) share one transaction. */
  add(key: StoredDataKey): Promise<StoredDataKey> {
    return new Promise((done, failed) => {
      if (this.pending.push({ key, done, failed }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    try {
      // A key inserted is the one given; one ignored was stored before: that one is read.
      const stored = this.db.transaction(() => batch.map(({ key }) => (this.statements.add.run(key).changes ? key : this.statements.get.get(key.id)!)))();
      batch.forEach(({ done }, i) => done(stored[i]));
    } catch (error) {
      for (const { failed } of batch) failed(error);
    }
  }

  async replace(key: StoredDataKey): Promise<void> {
    this.db.prepare('UPDATE data_keys SET master_id = @master_id, wrapped = @wrapped WHERE id = @id').run(key);
  }

  async destroyBetween(first: string, end: string): Promise<number> {
    const { changes } = this.db.prepare('DELETE FROM data_keys WHERE id >= ? AND id < ?').run(first, end);
    // The log still holds the pages as they were: moved into the file (overwritten there) and cut.
    if (changes) this.db.pragma('wal_checkpoint(TRUNCATE)');
    return changes;
  }

  async erase(id: string, at: string): Promise<void> {
    this.db
      .prepare(
        "INSERT INTO data_keys (id, master_id, wrapped, purpose, created_at) VALUES (?, '', '', 'erased', ?) ON CONFLICT(id) DO UPDATE SET master_id = '', wrapped = '', purpose = 'erased'",
      )
      .run(id, at);
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
