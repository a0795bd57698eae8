import { parse } from 'csv-parse/sync';
import { Readable } from 'node:stream';

/** How far into a body its header row is looked for; past it the import reads the file as ever. */
const PEEK_LIMIT = 64 * 1024;

/**
 * The header row of a CSV's first bytes as the importer's parser reads it (a BOM, quotes, blank
 * lines before it), `undefined` while more bytes are needed, null when it cannot be read (the
 * import then reads the file and says why).
 */
export function headerIn(text: string, ended: boolean): string[] | null | undefined {
  let quotes = 0;
  let seen = false;
  let end = -1;
  for (let i = 0; i < text.length && end < 0; i++) {
    const c = text[i];
    if (c === '"') quotes++;
    else if (c === '\n' && seen && quotes % 2 === 0) end = i;
    else if (c.trim() !== '' && c !== '\uFEFF') seen = true;
  }
  if (end < 0 && !ended) return text.length > PEEK_LIMIT ? null : undefined;
  try {
    const [first] = parse(end < 0 ? text : text.slice(0, end + 1), { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
    return first ? first.map((name) => name.trim()) : null;
  } catch {
    return null;
  }
}

/**
 * Reads a CSV body up to its header row and answers the header with the whole body again, the
 * bytes read first: a file that names no `phone_number` column is refused before anything is made
 * (docs/imports.md). A failure of the body (an upload cut short) reaches whoever reads the rest.
 */
export function peekCsvHeader(body: Readable): Promise<{ header: string[] | null; body: Readable }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let ended = false;
    let failure: Error | null = null;
    const look = () => {
      const header = headerIn(Buffer.concat(chunks).toString('utf8'), ended);
      if (header === undefined) return;
      // The error listener stays: a failure before the rest is read is thrown by the reading.
      body.off('data', onData).off('end', onEnd);
      body.pause();
      const rest = async function* () {
        yield* chunks;
        if (!ended && !failure) for await (const chunk of body) yield chunk as Buffer;
        if (failure) throw failure;
      };
      resolve({ header, body: Readable.from(rest(), { objectMode: false }) });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      look();
    };
    const onEnd = () => {
      ended = true;
      look();
    };
    const onError = (error: Error) => {
      failure ??= error;
      if (!ended) onEnd();
    };
    body.on('data', onData).once('end', onEnd).on('error', onError);
  });
}
