import Database from 'better-sqlite3';
import { withNumbersMasked } from '../../shared/phone';
import { compactedAfter } from './seal-embedded-events';

const DONE = 'upgrade:refusals-masked';
/** A runtime's refusal as recorded (`refusalReason` after `dial refused: `): its message follows the status. */
const REFUSAL = /^(dial refused: \w+ answered \d{3}: )(.*)$/s;

/**
 * docs/privacy.md: the one-time upgrade of an embedded event store written before a runtime's
 * refusals had their numbers masked (Twilio's name the number called): each such `reason` masked
 * in place, then the file vacuumed and its log emptied, so no page keeps the number. Marked done
 * in the store; answers how many events were rewritten (0 once done).
 */
export function maskEmbeddedRefusals(file: string): number {
  const db = new Database(file);
  try {
    const upgrade = db.transaction((): number => {
      // Decided in one write transaction: processes starting together on one store rewrite it once.
      if (db.prepare('SELECT value FROM sequences WHERE name = ?').get(DONE)) return 0;
      const rows = db
        .prepare("SELECT position, data FROM events WHERE type = 'CallOutcomeRecorded' AND json_extract(data, '$.reason') GLOB 'dial refused: *'")
        .all() as Array<{ position: number; data: string }>;
      const update = db.prepare('UPDATE events SET data = ? WHERE position = ?');
      let rewritten = 0;
      for (const row of rows) {
        const data = JSON.parse(row.data) as { reason: string };
        const refusal = REFUSAL.exec(data.reason);
        const reason = refusal ? `${refusal[1]}${withNumbersMasked(refusal[2])}` : data.reason;
        if (reason === data.reason) continue;
        update.run(JSON.stringify({ ...data, reason }), row.position);
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
