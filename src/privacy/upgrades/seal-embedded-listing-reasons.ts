import { numberKeyOfStream } from '../../do-not-call/do-not-call.events';
import { withPersonalSealed } from '../../shared/sealing/personal-fields';
import { Sealer } from '../../shared/sealing/sealer';
import { EventRewrite, rewrittenOnceWaiting } from './seal-embedded-events';

interface Row {
  position: number;
  stream: string;
  data: string;
  metadata: string;
  occurred_at: string;
}

/**
 * docs/privacy.md: the one-time upgrade of an embedded event store whose do-not-call listings'
 * reasons were written in plain text: each sealed in place under the listed number's key (its
 * stream's), then the file vacuumed and its log emptied. Marked done in the store; answers how
 * many events were rewritten. Sealing a value sealed already leaves it as it is, so processes
 * starting together on one store do no harm.
 */
export function sealEmbeddedListingReasons(file: string, sealer: Sealer): Promise<number> {
  return rewrittenOnceWaiting(file, 'upgrade:listing-reasons-sealed', async (db) => {
    const rows = db
      .prepare(
        `SELECT position, stream, data, metadata, occurred_at FROM events
         WHERE type = 'NumbersAddedToDoNotCall' AND json_extract(data, '$.reason') NOT GLOB 'sealed:v[12]:*'`,
      )
      .all() as Row[];
    const rewrites: EventRewrite[] = [];
    for (const row of rows) {
      const metadata = JSON.parse(row.metadata) as Record<string, unknown>;
      const data = JSON.parse(row.data) as { user_id: number };
      const sealed = await withPersonalSealed('NumbersAddedToDoNotCall', data, data.user_id, numberKeyOfStream(row.stream), sealer, new Date(row.occurred_at));
      const text = JSON.stringify(sealed.data);
      if (text !== row.data) rewrites.push([text, JSON.stringify(sealed.subject ? { ...metadata, subject: sealed.subject } : metadata), row.position]);
    }
    return rewrites;
  });
}
