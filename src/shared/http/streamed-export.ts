import { stringify } from 'csv-stringify/sync';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Snapshot } from '../ports/document-store.port';

export type ExportFormat = 'csv' | 'ndjson';

/** CSV unless the client asks for NDJSON (docs/reports.md). */
export const exportFormat = (accept: string | string[] | undefined): ExportFormat =>
  [accept].flat().some((value) => value?.includes('application/x-ndjson')) ? 'ndjson' : 'csv';

const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * A cell a spreadsheet would run as a formula is prefixed with `'`: OWASP's list of leading
 * characters (`=`, `+`, `-`, `@`, tab, carriage return); a plain number (an E.164 number, a
 * negative amount) is left as it is.
 */
export function neutralised(value: unknown): unknown {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * RFC 4180 with CRLF rows. csv-stringify quotes a cell holding the whole record delimiter, not a
 * lone `\r` or `\n`, which readers take as a row's end: any line break is quoted. Booleans are
 * `true`/`false` (its default writes `1` and an empty cell, so `false` would read as missing).
 */
const CSV_OPTIONS = {
  record_delimiter: 'windows',
  quoted_match: /[\r\n]/,
  cast: { boolean: (value: boolean) => (value ? 'true' : 'false') },
} as const;

export const csvText = (rows: unknown[][]): string => stringify(rows, CSV_OPTIONS);

const cell = (value: unknown): unknown => (value !== null && typeof value === 'object' ? JSON.stringify(value) : value);

/**
 * Streams rows to the client as they are read: Node's `pipeline` asks for the next page only once
 * the socket took the last (a slow client slows the read, memory stays a page or two), and stops
 * reading when the client goes away or the read fails (the answer is then cut short: its headers
 * are gone). Answers once everything was written or the answer ended.
 */
export async function sendExport(reply: FastifyReply, format: ExportFormat, name: string, columns: string[], pages: AsyncIterable<unknown[][]>): Promise<void> {
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    'content-disposition': `attachment; filename="${name}.${format === 'csv' ? 'csv' : 'ndjson'}"`,
    'cache-control': 'no-store',
  });
  const text =
    format === 'csv'
      ? (rows: unknown[][]) => csvText(rows.map((row) => row.map((value) => neutralised(cell(value)))))
      : (rows: unknown[][]) => rows.map((row) => `${JSON.stringify(Object.fromEntries(columns.map((column, i) => [column, row[i] ?? null])))}\n`).join('');
  async function* chunks() {
    if (format === 'csv') yield csvText([columns]);
    for await (const rows of pages) yield text(rows);
  }
  // A client that left or a failed read ends the pipeline, destroying the answer: nothing more to say.
  await pipeline(Readable.from(chunks(), { objectMode: false }), out).catch(() => undefined);
}

/**
 * docs/reports.md: the documents of a snapshot, each as `rowOf` makes its columns, then one `var_<name>`
 * column per key of any document's `variables` (known before the first row); the snapshot is let go
 * however the answer ended.
 */
export async function exportSnapshot<T extends { variables?: Record<string, unknown> }>(
  reply: FastifyReply,
  accept: string | string[] | undefined,
  name: string,
  columns: readonly string[],
  snapshot: Snapshot<T>,
  rowOf: (doc: T) => unknown[],
): Promise<void> {
  try {
    const variables = await snapshot.keysOf('variables');
    const rows = async function* () {
      for await (const page of snapshot.pages()) yield page.map((doc) => [...rowOf(doc), ...variables.map((key) => doc.variables?.[key] ?? null)]);
    };
    await sendExport(reply, exportFormat(accept), name, [...columns, ...variables.map((key) => `var_${key}`)], rows());
  } finally {
    await snapshot.close();
  }
}
