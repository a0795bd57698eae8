import Database from 'better-sqlite3';
import { Collection, DocId, DocumentStore, Filter, FindOptions, IndexSpec, Scalar } from './document-store.port';
import { assertFieldName, isRange } from './filter-fields';

type Bind = string | number | null;

const bind = (value: Scalar): Bind => (typeof value === 'boolean' ? (value ? 1 : 0) : value);
const path = (field: string) => `json_extract(doc, '$.${assertFieldName(field)}')`;
const tableName = (name: string) => `rm_${assertFieldName(name).replace(/\./g, '_')}`;

/** Translates a filter into a WHERE clause over the JSON documents; expression indexes serve it. */
function where(filter: Filter = {}): { sql: string; params: Bind[] } {
  const parts: string[] = [];
  const params: Bind[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    const column = path(field);
    if (!isRange(condition)) {
      if (condition === null) parts.push(`${column} IS NULL`);
      else {
        parts.push(`${column} = ?`);
        params.push(bind(condition));
      }
      continue;
    }
    const ops: Array<[keyof typeof condition, string]> = [
      ['gt', '>'],
      ['gte', '>='],
      ['lt', '<'],
      ['lte', '<='],
    ];
    for (const [key, op] of ops) {
      const value = condition[key] as Scalar | undefined;
      if (value === undefined) continue;
      parts.push(`${column} ${op} ?`);
      params.push(bind(value));
    }
    if (condition.ne !== undefined) {
      if (condition.ne === null) parts.push(`${column} IS NOT NULL`);
      else {
        parts.push(`(${column} IS NULL OR ${column} != ?)`);
        params.push(bind(condition.ne));
      }
    }
    if (condition.in !== undefined) {
      if (condition.in.length === 0) parts.push('0');
      else {
        parts.push(`${column} IN (${condition.in.map(() => '?').join(', ')})`);
        params.push(...condition.in.map(bind));
      }
    }
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

class SqliteCollection<T extends object> implements Collection<T> {
  private readonly getStmt;
  private readonly upsertStmt;
  private readonly deleteStmt;
  private readonly cache = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
  ) {
    this.getStmt = db.prepare<[string], { doc: string }>(`SELECT doc FROM ${table} WHERE id = ?`);
    this.upsertStmt = db.prepare(
      `INSERT INTO ${table} (id, pos, doc) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET pos = excluded.pos, doc = excluded.doc WHERE ${table}.pos < excluded.pos`,
    );
    this.deleteStmt = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  }

  async get(id: DocId): Promise<T | null> {
    const row = this.getStmt.get(String(id));
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<T[]> {
    const { sql, params } = where(filter);
    const order = options.sort?.length
      ? `ORDER BY ${options.sort.map(([f, d]) => `${path(f)} ${d === 'desc' ? 'DESC' : 'ASC'}`).join(', ')}`
      : '';
    const limit = options.limit !== undefined || options.skip ? `LIMIT ? OFFSET ?` : '';
    const stmt = this.prepare(`SELECT doc FROM ${this.table} ${sql} ${order} ${limit}`);
    const args = limit ? [...params, options.limit ?? -1, options.skip ?? 0] : params;
    return (stmt.all(...args) as Array<{ doc: string }>).map((r) => JSON.parse(r.doc) as T);
  }

  async count(filter?: Filter): Promise<number> {
    const { sql, params } = where(filter);
    return (this.prepare(`SELECT count(*) AS n FROM ${this.table} ${sql}`).get(...params) as { n: number }).n;
  }

  async upsert(id: DocId, doc: T, position: number): Promise<boolean> {
    return this.upsertStmt.run(String(id), position, JSON.stringify(doc)).changes > 0;
  }

  async delete(id: DocId): Promise<boolean> {
    return this.deleteStmt.run(String(id)).changes > 0;
  }

  private prepare(sql: string): Database.Statement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.cache.size > 500) this.cache.clear();
      this.cache.set(sql, stmt);
    }
    return stmt;
  }
}

/**
 * Read models in one SQLite file: a table per collection holding JSON documents, with
 * expression indexes on the fields the lists filter and sort by.
 */
export class SqliteDocumentStore implements DocumentStore {
  readonly atomicBatches = true;
  private readonly db: Database.Database;
  private readonly collections = new Map<string, SqliteCollection<any>>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 10000');
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
  }

  collection<T extends object>(name: string, indexes: IndexSpec[] = []): Collection<T> {
    const existing = this.collections.get(name);
    if (existing) return existing;
    const table = tableName(name);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, pos INTEGER NOT NULL, doc TEXT NOT NULL)`);
    for (const index of indexes) {
      const indexName = `${table}__${index.fields.map((f) => f.replace(/\./g, '_')).join('__')}`;
      this.db.exec(
        `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${indexName} ON ${table} (${index.fields.map(path).join(', ')})`,
      );
    }
    const collection = new SqliteCollection<T>(this.db, table);
    this.collections.set(name, collection);
    return collection;
  }

  async getCheckpoint(name: string): Promise<number> {
    const row = this.db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE name = ?').get(name);
    return row?.position ?? 0;
  }

  async setCheckpoint(name: string, position: number): Promise<void> {
    this.db
      .prepare('INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position')
      .run(name, position);
  }

  /** One write transaction at a time per process (a promise queue), and per file (SQLite's lock). */
  exclusive<R>(_lock: string, work: () => Promise<R>): Promise<{ ran: true; result: R }> {
    const run = async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work();
        this.db.exec('COMMIT');
        return { ran: true as const, result };
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async clearCollection(name: string): Promise<void> {
    const table = tableName(name);
    const exists = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
    if (exists) this.db.exec(`DELETE FROM ${table}`);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.queue;
    if (this.db.open) this.db.close();
  }
}
