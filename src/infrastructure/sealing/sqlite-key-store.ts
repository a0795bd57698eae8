import Database from 'better-sqlite3';
import { KeyStore, StoredDataKey } from './key-store.port';

/**
 * Data keys in `DATA_DIR/keys.db`, apart from the event and read stores, one per person called:
 * a write-ahead log (adding a key at each new number costs no sync of its own) emptied into the
 * file and cut to nothing after each destruction, and `secure_delete`, so a destroyed key's bytes
 * are overwritten in the file itself, not left in a free page or the log.
 */
export class SqliteKeyStore implements KeyStore {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('secure_delete = ON');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS data_keys (id TEXT PRIMARY KEY, master_id TEXT NOT NULL, wrapped TEXT NOT NULL, purpose TEXT NOT NULL, created_at TEXT NOT NULL)',
    );
  }

  async all(): Promise<StoredDataKey[]> {
    return this.db.prepare('SELECT * FROM data_keys ORDER BY created_at, id').all() as StoredDataKey[];
  }

  async get(id: string): Promise<StoredDataKey | null> {
    return (this.db.prepare('SELECT * FROM data_keys WHERE id = ?').get(id) as StoredDataKey | undefined) ?? null;
  }

  async add(key: StoredDataKey): Promise<StoredDataKey> {
    this.db
      .prepare('INSERT OR IGNORE INTO data_keys (id, master_id, wrapped, purpose, created_at) VALUES (@id, @master_id, @wrapped, @purpose, @created_at)')
      .run(key);
    return (await this.get(key.id))!;
  }

  async replace(key: StoredDataKey): Promise<void> {
    this.db.prepare('UPDATE data_keys SET master_id = @master_id, wrapped = @wrapped WHERE id = @id').run(key);
  }

  async destroy(id: string): Promise<void> {
    this.db.prepare('DELETE FROM data_keys WHERE id = ?').run(id);
    // The log still holds the page as it was: moved into the file (overwritten there) and cut.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
