import type { FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH, tooDeepField } from '../../shared/validation/json-depth';
import { ValidationFailed, attribute } from '../../shared/validation/validation.pipe';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface RawBodyRequest {
  rawBody?: string;
}

/**
 * JSON bodies up to 1 MiB. An empty body reads as no body (so a DELETE sent with a JSON
 * content type still works); anything unparsable is a 400; a value nested deeper than 32
 * levels is refused before it is parsed (contract §12). `__proto__` keys are parsed as plain
 * keys, as JSON.parse does, and judged by validation (see proto-keys). The text is kept as
 * `rawBody` for signature checks. `notJsonRoutes` (the import's) get no body from it.
 */
export function installJsonBodyParser(fastify: FastifyInstance, { notJsonRoutes = [] }: { notJsonRoutes?: string[] } = {}): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (req, body, done) => {
    // A route that takes no JSON refuses the type in its own words, whatever the text.
    if (notJsonRoutes.includes(req.routeOptions.url ?? '')) return done(null, undefined);
    const text = body as string;
    (req as RawBodyRequest).rawBody = text;
    if (text.trim() === '') return done(null, undefined);
    const tooDeep = tooDeepField(text);
    if (tooDeep)
      return done(new ValidationFailed({ [tooDeep]: [`The ${attribute(tooDeep)} field must not be nested deeper than ${MAX_JSON_DEPTH} levels.`] }), undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('Malformed JSON body.'), { statusCode: 400 }), undefined);
    }
  });
}
