import { withNumbersMasked } from '../../shared/phone';
import { rewriteEvents, rewrittenOnce } from './seal-embedded-events';

/** A runtime's refusal as recorded (`refusalReason` after `dial refused: `): its message follows the status. */
const REFUSAL = /^(dial refused: \w+ answered \d{3}: )(.*)$/s;

/**
 * docs/privacy.md: the one-time upgrade of an embedded event store written before a runtime's
 * refusals had their numbers masked (Twilio's name the number called): each such `reason` masked
 * in place, then the file vacuumed and its log emptied, so no page keeps the number. Answers how
 * many events were rewritten (0 once done).
 */
export function maskEmbeddedRefusals(file: string): number {
  const select = "SELECT position, type, data FROM events WHERE type = 'CallOutcomeRecorded' AND json_extract(data, '$.reason') GLOB 'dial refused: *'";
  return rewrittenOnce(file, 'upgrade:refusals-masked', (db) =>
    rewriteEvents(db, select, [], (_type, data) => {
      const [, status, message] = REFUSAL.exec((data as { reason: string }).reason) ?? [];
      const masked = message === undefined ? message : withNumbersMasked(message);
      return masked === message ? data : { ...(data as object), reason: `${status}${masked}` };
    }),
  );
}
