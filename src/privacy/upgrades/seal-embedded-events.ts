import Database from 'better-sqlite3';
import { withSecretsSealed } from '../../shared/sealing/sealed-fields';

/** The event types earlier versions wrote secrets into in plain text. */
const WITH_SECRETS = ['UserRegistered', 'ToolCreated', 'ToolUpdated'];
const DONE = 'upgrade:secrets-sealed';

/**
 * docs/privacy.md: the one-time upgrade of an embedded event store written before secrets were
 * sealed: each secret in the log sealed in place, then the file vacuumed and its write-ahead log
 * emptied, so no page keeps the plain text. Marked done in the store; answers how many events
 * were rewritten (0 once done).
 */
export function sealEmbeddedEvents(file: string, seal: (plain: string) => string): number {
  const db = new Database(file);
  try {
    const upgrade = db.transaction((): number => {
      // Decided in one write transaction: processes starting together on one store rewrite it once.
      if (db.prepare('SELECT value FROM sequences WHERE name = ?').get(DONE)) return 0;
      const rows = db
        .prepare(`SELECT position, type, data FROM events WHERE type IN (${WITH_SECRETS.map(() => '?').join(', ')})`)
        .all(...WITH_SECRETS) as Array<{
        position: number;
        type: string;
        data: string;
      }>;
      const update = db.prepare('UPDATE events SET data = ? WHERE position = ?');
      let rewritten = 0;
      for (const row of rows) {
        const data = JSON.parse(row.data) as unknown;
        const sealed = withSecretsSealed(row.type, data, seal);
        if (sealed === data) continue;
        update.run(JSON.stringify(sealed), row.position);
        rewritten++;
      }
      db.prepare('INSERT INTO sequences (name, value) VALUES (?, 1)').run(DONE);
      return rewritten;
    });
    return compactedAfter(db, upgrade.immediate());
  } finally {
    db.close();
  }
}

/** After `rewritten` events were rewritten in place: the file vacuumed and its log emptied, so no page keeps what they held. */
export function compactedAfter(db: Database.Database, rewritten: number): number {
  if (rewritten > 0) {
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
  return rewritten;
}
