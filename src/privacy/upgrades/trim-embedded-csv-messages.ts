import { rewriteEvents, rewrittenOnce } from './seal-embedded-events';

/** How the import's reason and an unreadable row's message begin (`lead-import-processor.ts`, `import-rows.ts`). */
const UNREADABLE = /^(The file cannot be read(?: from this row on)?: )([^:]+):.*$/s;

/** csv-parse's words cut to their title and line, as `csvProblem` now writes them; other texts as they are. */
export function trimmedCsvMessage(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const [, prefix, title] = UNREADABLE.exec(text) ?? [];
  if (prefix === undefined) return text;
  const line = /(?:at|on) line (\d+)/.exec(text)?.[1];
  return `${prefix}${title}${line ? ` at line ${line}` : ''}`;
}

/**
 * docs/privacy.md: the one-time upgrade of an embedded event store written while an import that
 * met a CSV row it could not read kept csv-parse's whole message, which quotes a piece of the row
 * (a person's data with no number to erase it by): each such reason and row message cut to what
 * the parser found and where, in place, then the file vacuumed and its log emptied. Answers how
 * many events were rewritten (0 once done). A message sealed under the number it named is left as it is.
 */
export function trimEmbeddedCsvMessages(file: string): number {
  const select = "SELECT position, type, data FROM events WHERE type IN ('LeadImportFinished', 'LeadImportRowsDone') AND data LIKE '%The file cannot be read%'";
  return rewrittenOnce(file, 'upgrade:csv-messages-trimmed', (db) =>
    rewriteEvents(db, select, [], (type, data) => {
      if (type === 'LeadImportFinished') {
        const { reason } = data as { reason: unknown };
        const trimmed = trimmedCsvMessage(reason);
        return trimmed === reason ? data : { ...(data as object), reason: trimmed };
      }
      const { errors } = data as { errors: Array<{ row: number; message: unknown }> };
      const trimmed = errors.map((error) => ({ ...error, message: trimmedCsvMessage(error.message) }));
      return trimmed.every((error, i) => error.message === errors[i].message) ? data : { ...(data as object), errors: trimmed };
    }),
  );
}
