import { withPersonalSealed } from '../../shared/sealing/personal-fields';
import { Sealer } from '../../shared/sealing/sealer';
import { sealedKeyId } from '../../shared/sealing/sealed-values';
import { EventRewrite, rewrittenOnceWaiting } from './seal-embedded-events';

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
export function sealEmbeddedWebhookAnswers(file: string, sealer: Sealer): Promise<number> {
  return rewrittenOnceWaiting(file, 'upgrade:webhook-answers-sealed', async (db) => {
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
    const rewrites: EventRewrite[] = [];
    for (const row of rows) {
      const subject = subjects.get(row.stream);
      if (!subject) continue;
      const data = JSON.parse(row.data) as { user_id: number };
      const sealed = await withPersonalSealed(row.type, data, data.user_id, subject, sealer, new Date(row.occurred_at));
      rewrites.push([JSON.stringify(sealed.data), JSON.stringify({ ...(JSON.parse(row.metadata) as object), subject }), row.position]);
    }
    return rewrites;
  });
}
