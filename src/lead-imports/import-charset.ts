import { TextDecoder } from 'node:util';
import { Readable, Transform, pipeline } from 'node:stream';

/**
 * The decoder for the `charset` a body's `Content-Type` names (UTF-8 when it names none), or null
 * when no decoder knows it. Spreadsheet exports are often Windows-1252 (Excel's plain "CSV") or
 * UTF-16 ("Unicode Text"); read as UTF-8, their accented names would be stored garbled.
 */
export function charsetOf(contentType: string | undefined): TextDecoder | null {
  return decoderFor(/;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]);
}

/** The decoder of a charset by name (UTF-8 when none is given), or null when no decoder knows it. */
export function decoderFor(charset = 'utf-8'): TextDecoder | null {
  try {
    return new TextDecoder(charset);
  } catch {
    return null;
  }
}

/** The body as UTF-8, decoded as it arrives: the stored file and every reading of it are UTF-8. */
export function asUtf8(body: Readable, decoder: TextDecoder): Readable {
  if (decoder.encoding === 'utf-8') return body;
  const text = (chunk?: Buffer) => Buffer.from(decoder.decode(chunk, { stream: chunk !== undefined }), 'utf8');
  const transcoding = new Transform({
    transform: (chunk: Buffer, _encoding, done) => done(null, text(chunk)),
    flush: (done) => done(null, text()),
  });
  // Through `pipeline`, the body's own failure (an upload cut short) reaches the reader.
  return pipeline(body, transcoding, () => undefined);
}
