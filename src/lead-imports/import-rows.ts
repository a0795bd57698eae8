import { CsvError, Parser, parse } from 'csv-parse';
import { Readable, pipeline } from 'node:stream';
import { BODY_LIMIT_BYTES } from '../infrastructure/http/json-body-parser';
import { ImportFormat } from './lead-import.events';

/** A data row: its number (docs/imports.md) and the lead body of docs/api.md it stands for, or why it cannot be read. */
export type ImportRow = { row: number; body: Record<string, unknown> } | { row: number; unreadable: string };

const SECONDARY = /^secondary_phone_number_(\d+)$/;

/** What a CSV record csv-parse cannot read is refused with, before its own words; the import ends there. */
export const UNREADABLE_ROW = 'The file cannot be read from this row on:';

/**
 * What csv-parse could not read, as its message names it, and where: not the rest of its words,
 * which quote the row (`value is "…"`, `got "…"`: a piece of a person's data, kept in the log
 * where no erasure of a number reaches it, docs/privacy.md).
 */
export function csvProblem(error: CsvError): string {
  // A message not in csv-parse's `Title: words` form is named by its code alone.
  const [title, ...words] = error.message.split(':');
  const named = words.length ? title : error.code;
  return typeof error.lines === 'number' ? `${named} at line ${error.lines}` : named;
}

/** A row is held to a single create's body limit: memory holds one row, however a file is made. */
export const MAX_ROW_BYTES = BODY_LIMIT_BYTES;
export const ROW_TOO_LARGE = 'The row must not be larger than 1 MiB.';

/** The rows of an import's body, one at a time as they are read: memory holds one row, whatever the size. */
export function importRows(format: ImportFormat, input: Readable): AsyncGenerator<ImportRow> {
  if (format === 'csv') return csvRows(input);
  return format === 'ndjson' ? ndjsonRows(input) : textRows(input);
}

/** Plain text: one phone number a line, numbered by its line; blank lines are passed over, not counted. */
async function* textRows(input: Readable): AsyncGenerator<ImportRow> {
  let line = 0;
  for await (const text of lines(input)) {
    line++;
    if (text === null) yield { row: line, unreadable: ROW_TOO_LARGE };
    else if (text.trim() !== '') yield { row: line, body: { phone_number: text.trim() } };
  }
}

/**
 * CSV with a header row (a BOM, quotes, CRLF and blank lines as csv-parse reads them): `phone_number`,
 * `timezone` and `secondary_phone_number_1..n` name the lead's fields, every other column a string
 * variable. Rows are numbered from 1 after the header, blank lines not counted.
 */
async function* csvRows(input: Readable): AsyncGenerator<ImportRow> {
  // A record that cannot be parsed ends the rows after every record before it, and itself. Failing the parser
  // would drop those it had parsed and not handed on yet (as many as the chunk held), so it passes
  // over the record instead, and the rows stop where it was.
  // Set by the parser's callback: typed so that the loop does not take it for null.
  let unreadable = null as { error: CsvError; after: number } | null;
  const parser: Parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    trim: false,
    max_record_size: MAX_ROW_BYTES,
    skip_records_with_error: true,
    on_skip: (error) => void (unreadable ??= { error: error!, after: parser.info.records }),
  });
  // Through `pipeline`, the body's own failure (an upload cut short) fails the rows.
  const records = pipeline(input, parser, () => undefined);
  let header: string[] | null = null;
  let row = 0;
  let read = 0;
  for await (const record of records as AsyncIterable<string[]>) {
    if (unreadable !== null && read >= unreadable.after) break;
    read++;
    if (!header) {
      header = record.map((name) => name.trim());
      continue;
    }
    yield { row: ++row, body: leadOf(header, record) };
  }
  if (unreadable === null) return;
  // The record is a data row refused with the reason, for the import's errors to show where it stopped.
  if (header) yield { row: ++row, unreadable: `${UNREADABLE_ROW} ${csvProblem(unreadable.error)}` };
  throw unreadable.error;
}

function leadOf(header: string[], cells: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const variables: Record<string, string> = {};
  const secondary: Array<{ order: number; phone_number: string }> = [];
  header.forEach((name, i) => {
    const cell = cells[i];
    if (cell === undefined || name === '') return;
    const contact = SECONDARY.exec(name);
    if (name === 'phone_number') body.phone_number = cell;
    else if (name === 'timezone') {
      if (cell !== '') body.timezone = cell;
    } else if (contact) {
      if (cell !== '') secondary.push({ order: Number(contact[1]), phone_number: cell });
    } else {
      // Defined, not assigned: a `__proto__` column is a key like any other, refused by docs/api.md's rules
      // as in a single create; assigned, it would be dropped silently.
      Object.defineProperty(variables, name, { value: cell, enumerable: true, writable: true, configurable: true });
    }
  });
  if (Object.keys(variables).length) body.variables = variables;
  if (secondary.length) body.secondary_contacts = secondary.sort((a, b) => a.order - b.order).map(({ phone_number }) => ({ phone_number }));
  return body;
}

/**
 * NDJSON: one lead body of docs/api.md per line (LF or CRLF), numbered by its line; blank lines are passed
 * over, not counted. A line past `MAX_ROW_BYTES` is refused without being held.
 */
async function* ndjsonRows(input: Readable): AsyncGenerator<ImportRow> {
  let line = 0;
  for await (const text of lines(input)) {
    line++;
    if (text === null) {
      yield { row: line, unreadable: ROW_TOO_LARGE };
      continue;
    }
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { row: line, unreadable: 'Malformed JSON body.' };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) yield { row: line, unreadable: 'The request body must be a JSON object.' };
    else yield { row: line, body: value as Record<string, unknown> };
  }
}

/** The body's lines as text (a BOM and each line's CR dropped), or null for a line too long to hold. */
async function* lines(input: Readable): AsyncGenerator<string | null> {
  let held: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let first = true;
  const end = (): string | null => {
    const text = tooLong ? null : Buffer.concat(held).toString('utf8').replace(/\r$/, '');
    [held, size, tooLong] = [[], 0, false];
    if (first && text !== null && text.charCodeAt(0) === 0xfeff) return ((first = false), text.slice(1));
    first = false;
    return text;
  };
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let from = 0;
    for (let at = chunk.indexOf(10); at !== -1; from = at + 1, at = chunk.indexOf(10, from)) {
      hold(chunk.subarray(from, at));
      yield end();
    }
    hold(chunk.subarray(from));
  }
  if (size > 0 || tooLong) yield end();

  function hold(part: Buffer) {
    if (tooLong || part.length === 0) return;
    size += part.length;
    if (size > MAX_ROW_BYTES) [held, tooLong] = [[], true];
    else held.push(part);
  }
}
