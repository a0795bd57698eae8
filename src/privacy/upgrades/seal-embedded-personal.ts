import Database from 'better-sqlite3';
import { organisationOf } from '../../shared/event-sourcing/actor';
import { declaredEventTypes } from '../../shared/event-sourcing/event-fields';
import { hasPersonalFields, withPersonalSealed } from '../../shared/sealing/personal-fields';
import { compactedAfter } from './seal-embedded-events';
import { Sealer } from '../../shared/sealing/sealer';

const DONE = 'upgrade:personal-sealed';
const STREAMS_AT_ONCE = 500;

interface Row {
  position: number;
  type: string;
  data: string;
  metadata: string;
  occurred_at: string;
}

/** Streams named by a number's digits in earlier versions, and their names now (docs/privacy.md). */
function renamed(stream: string, sealer: Sealer): string | null {
  const lead = /^lead_number-(\d+)_(\d+)$/.exec(stream);
  if (lead) return `lead_number-${lead[1]}_${sealer.keyedHash(`+${lead[2]}`)}`;
  const listed = /^dnc_number-(\d+)_(\d+)$/.exec(stream);
  if (listed) return `dnc_number-${listed[1]}_${sealer.subjectKeyId(Number(listed[1]), `+${listed[2]}`)}`;
  return null;
}

/**
 * docs/privacy.md: the one-time upgrade of an embedded event store written before personal values
 * were sealed: each stream's personal values sealed in place under their people's keys (as the
 * command runner seals them), streams named by a number's digits renamed by its keyed hash, then
 * the file vacuumed and its log emptied. Marked done in the store; answers how many events were
 * rewritten. Sealing a value sealed already leaves it as it is, so processes starting together on
 * one store do no harm.
 */
export async function sealEmbeddedPersonalValues(file: string, sealer: Sealer): Promise<number> {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  try {
    if (db.prepare('SELECT value FROM sequences WHERE name = ?').get(DONE)) return 0;
    const types = declaredEventTypes().filter(hasPersonalFields);
    const streams = db
      .prepare(`SELECT DISTINCT stream FROM events WHERE type IN (${types.map(() => '?').join(', ')})`)
      .pluck()
      .all(...types) as string[];
    const read = db.prepare('SELECT position, type, data, metadata, occurred_at FROM events WHERE stream = ? ORDER BY revision');
    const update = db.prepare('UPDATE events SET data = ?, metadata = ? WHERE position = ?');
    let rewritten = 0;
    for (let i = 0; i < streams.length; i += STREAMS_AT_ONCE) {
      const updates: Array<[string, string, number]> = [];
      for (const stream of streams.slice(i, i + STREAMS_AT_ONCE)) {
        let subject: string | undefined;
        for (const row of read.all(stream) as Row[]) {
          const metadata = JSON.parse(row.metadata) as Record<string, unknown>;
          const data = JSON.parse(row.data) as { user_id?: unknown; organisation_id?: unknown };
          const named = typeof data?.organisation_id === 'number' ? data.organisation_id : typeof data?.user_id === 'number' ? data.user_id : undefined;
          subject ??= typeof metadata.subject === 'string' ? metadata.subject : undefined;
          const sealed = await withPersonalSealed(row.type, data, organisationOf(metadata) ?? named, subject, sealer, new Date(row.occurred_at));
          subject ??= sealed.subject;
          const text = JSON.stringify(sealed.data);
          if (text === row.data) continue;
          updates.push([text, JSON.stringify(sealed.subject ? { ...metadata, subject: sealed.subject } : metadata), row.position]);
        }
      }
      db.transaction(() => updates.forEach((args) => update.run(...args)))();
      rewritten += updates.length;
    }
    const named = db.prepare("SELECT DISTINCT stream FROM events WHERE stream GLOB 'lead_number-*' OR stream GLOB 'dnc_number-*'").pluck().all() as string[];
    db.transaction(() => {
      for (const stream of named) {
        const now = renamed(stream, sealer);
        if (!now) continue;
        rewritten += db.prepare('UPDATE events SET stream = ? WHERE stream = ?').run(now, stream).changes;
        db.prepare('UPDATE stream_starts SET stream = ? WHERE stream = ?').run(now, stream);
      }
      db.prepare('INSERT INTO sequences (name, value) VALUES (?, 1) ON CONFLICT (name) DO NOTHING').run(DONE);
    })();
    return compactedAfter(db, rewritten);
  } finally {
    db.close();
  }
}
