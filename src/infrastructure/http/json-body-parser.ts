import type { FastifyInstance } from 'fastify';
import getRawBody from 'raw-body';
import { MAX_JSON_DEPTH, tooDeepField } from '../../shared/validation/json-depth';
import { ValidationFailed, attribute } from '../../shared/validation/validation.pipe';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** A body past the limit is still read (and thrown away) up to this much, so a client still sending reads the 413. */
const DRAINED_AT_MOST_BYTES = 16 * 1024 * 1024;
const DRAINED_AT_MOST_MS = 10_000;

/** Reads what is left of a refused body, up to a bound, then answers: closed mid-send, a client gets EPIPE, not the answer. */
function drained(payload: NodeJS.ReadableStream & { destroyed?: boolean }): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const finish = () => {
      clearTimeout(timer);
      payload.removeListener('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAINED_AT_MOST_BYTES) finish();
    };
    const timer = setTimeout(finish, DRAINED_AT_MOST_MS);
    payload.on('data', onData).once('end', finish).once('error', finish).once('close', finish);
    payload.resume();
  });
}

export interface RawBodyRequest {
  rawBody?: string;
}

/**
 * JSON bodies up to 1 MiB. An empty body reads as no body (so a DELETE sent with a JSON
 * content type still works); anything unparsable is a 400; a value nested deeper than 32
 * levels is refused before it is parsed (docs/api.md). `__proto__` keys are parsed as plain
 * keys, as JSON.parse does, and judged by validation (see proto-keys). The text is kept as
 * `rawBody` for signature checks. `notJsonRoutes` (the import's) get the body unread, of any
 * size, to refuse the type in their own words.
 */
export function installJsonBodyParser(fastify: FastifyInstance, { notJsonRoutes = [] }: { notJsonRoutes?: string[] } = {}): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', (req, payload, done) => {
    if (notJsonRoutes.includes(req.routeOptions.url ?? '')) return done(null, payload);
    // raw-body's errors carry the status they answer: 413 past the limit, 400 for a body cut short.
    getRawBody(payload, { length: req.headers['content-length'], limit: BODY_LIMIT_BYTES, encoding: 'utf8' }).then(
      (text) => {
        (req as RawBodyRequest).rawBody = text;
        if (text.trim() === '') return done(null, undefined);
        const tooDeep = tooDeepField(text);
        if (tooDeep)
          return done(
            new ValidationFailed({ [tooDeep]: [`The ${attribute(tooDeep)} field must not be nested deeper than ${MAX_JSON_DEPTH} levels.`] }),
            undefined,
          );
        try {
          done(null, JSON.parse(text));
        } catch {
          done(Object.assign(new Error('Malformed JSON body.'), { statusCode: 400 }), undefined);
        }
      },
      (error: Error & { status?: number }) => {
        if (error.status !== 413) return done(error, undefined);
        void drained(payload).then(() => done(error, undefined));
      },
    );
  });
}
