import Database from 'better-sqlite3';
import { withPersonalSealed } from '../../shared/sealing/personal-fields';
import { Sealer, sealedKeyId } from '../../shared/sealing/sealer';
import { compactedAfter } from './seal-embedded-events';

const DONE = 'upgrade:webhook-answers-sealed';

interface Row {
  position: number;
  stream: string;
  type: string;
  data: string;
  metadata: string;
  occurred_at: string;
}

interface Payload {
  call?: { client_phone_number?: unknown } | null;
  lead?: { phone_number?: unknown } | null;
}

/** The key a delivery's person's number is sealed under in its payload: its call's, else its lead's; none for a campaign's. */
function personOf(payload: Payload | undefined): string | undefined {
  const about = payload?.call?.client_phone_number ?? payload?.lead?.phone_number;
  return typeof about === 'string' ? sealedKeyId(about) : undefined;
}

/**
 * docs/privacy.md: the one-time upgrade of an embedded event store whose webhook deliveries were
 * written with no person: what the user's system answered about a call or a lead was left in
 * plain text. Each such delivery's events are sealed in place under the key of the person its
 * payload is about, and stamped with that subject; then the file is vacuumed and its log emptied.
 * Marked done in the store; answers how many events were rewritten. Values sealed already are
 * left as they are, so processes starting together on one store do no harm.
 */
export async function sealEmbeddedWebhookAnswers(file: string, sealer: Sealer): Promise<number> {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  try {
    if (db.prepare('SELECT value FROM sequences WHERE name = ?').get(DONE)) return 0;
    const rows = db
      .prepare(
        `SELECT position, stream, type, data, metadata, occurred_at FROM events
         WHERE stream GLOB 'webhook-*' AND json_extract(metadata, '$.subject') IS NULL ORDER BY position`,
      )
      .all() as Row[];
    const subjects = new Map<string, string>();
    for (const row of rows) {
      if (row.type !== 'WebhookRequested') continue;
      const person = personOf((JSON.parse(row.data) as { payload?: Payload }).payload);
      if (person) subjects.set(row.stream, person);
    }
    const updates: Array<[string, string, number]> = [];
    for (const row of rows) {
      const subject = subjects.get(row.stream);
      if (!subject) continue;
      const data = JSON.parse(row.data) as { user_id: number };
      const sealed = await withPersonalSealed(row.type, data, data.user_id, subject, sealer, new Date(row.occurred_at));
      updates.push([JSON.stringify(sealed.data), JSON.stringify({ ...(JSON.parse(row.metadata) as object), subject }), row.position]);
    }
    const update = db.prepare('UPDATE events SET data = ?, metadata = ? WHERE position = ?');
    db.transaction(() => {
      for (const args of updates) update.run(...args);
      db.prepare('INSERT INTO sequences (name, value) VALUES (?, 1) ON CONFLICT (name) DO NOTHING').run(DONE);
    })();
    return compactedAfter(db, updates.length);
  } finally {
    db.close();
  }
}
