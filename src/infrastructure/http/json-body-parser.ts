import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface RawBodyRequest {
  rawBody?: string;
}

/**
 * JSON bodies up to 1 MiB. An empty body reads as no body (so a DELETE sent with a JSON
 * content type still works); anything unparsable is a 400. Prototype-poisoning keys are
 * removed while parsing. The text is kept as `rawBody` for signature checks.
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (req, body, done) => {
    const text = body as string;
    (req as RawBodyRequest).rawBody = text;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch {
      done(Object.assign(new Error('Malformed JSON body.'), { statusCode: 400 }), undefined);
    }
  });
}
