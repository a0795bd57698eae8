import Database from 'better-sqlite3';
import { withSecretsSealed } from '../../shared/sealing/sealed-fields';

/** The event types earlier versions wrote secrets into in plain text. */
const WITH_SECRETS = ['UserRegistered', 'ToolCreated', 'ToolUpdated'];

/**
 * docs/privacy.md: the one-time upgrade of an embedded event store written before secrets were
 * sealed: each secret in the log sealed in place, then the file vacuumed and its write-ahead log
 * emptied, so no page keeps the plain text. Answers how many events were rewritten (0 once done).
 */
export function sealEmbeddedEvents(file: string, seal: (plain: string) => string): number {
  return rewrittenOnce(file, 'upgrade:secrets-sealed', (db) =>
    rewriteEvents(db, `SELECT position, type, data FROM events WHERE type IN (${WITH_SECRETS.map(() => '?').join(', ')})`, WITH_SECRETS, (type, data) =>
      withSecretsSealed(type, data, seal),
    ),
  );
}

/**
 * Runs `rewrite` once in the store's life: decided in one write transaction (processes starting
 * together on one store rewrite it once), marked done there; then, if it rewrote any event, the
 * file vacuumed and its log emptied. Answers how many events were rewritten.
 */
export function rewrittenOnce(file: string, done: string, rewrite: (db: Database.Database) => number): number {
  const db = new Database(file);
  try {
    const upgrade = db.transaction((): number => {
      if (db.prepare('SELECT value FROM sequences WHERE name = ?').get(done)) return 0;
      const rewritten = rewrite(db);
      db.prepare('INSERT INTO sequences (name, value) VALUES (?, 1)').run(done);
      return rewritten;
    });
    return compactedAfter(db, upgrade.immediate());
  } finally {
    db.close();
  }
}

/** Each event `select` finds given the data `change` answers for it (the same object: left as it is); how many were rewritten. */
export function rewriteEvents(db: Database.Database, select: string, params: unknown[], change: (type: string, data: unknown) => unknown): number {
  const rows = db.prepare(select).all(...params) as Array<{ position: number; type: string; data: string }>;
  const update = db.prepare('UPDATE events SET data = ? WHERE position = ?');
  let rewritten = 0;
  for (const row of rows) {
    const data = JSON.parse(row.data) as unknown;
    const changed = change(row.type, data);
    if (changed === data) continue;
    update.run(JSON.stringify(changed), row.position);
    rewritten++;
  }
  return rewritten;
}

/** After `rewritten` events were rewritten in place: the file vacuumed and its log emptied, so no page keeps what they held. */
export function compactedAfter(db: Database.Database, rewritten: number): number {
  if (rewritten > 0) {
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
  return rewritten;
}

/** An event rewritten in place: its data and metadata as JSON, and its position. */
export type EventRewrite = [data: string, metadata: string, position: number];

/**
 * Runs `collect` once in the store's life, for rewrites that need to wait on the sealer: what it
 * answers is written, and the upgrade marked done, in one transaction; then, if it rewrote any
 * event, the file vacuumed and its log emptied. Collecting twice at once (processes starting
 * together) is harmless only for rewrites that leave a sealed value as it is. Answers how many
 * events were rewritten.
 */
export async function rewrittenOnceWaiting(file: string, done: string, collect: (db: Database.Database) => Promise<EventRewrite[]>): Promise<number> {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  try {
    if (db.prepare('SELECT value FROM sequences WHERE name = ?').get(done)) return 0;
    const rewrites = await collect(db);
    const update = db.prepare('UPDATE events SET data = ?, metadata = ? WHERE position = ?');
    db.transaction(() => {
      for (const args of rewrites) update.run(...args);
      db.prepare('INSERT INTO sequences (name, value) VALUES (?, 1) ON CONFLICT (name) DO NOTHING').run(done);
    })();
    return compactedAfter(db, rewrites.length);
  } finally {
    db.close();
  }
}
