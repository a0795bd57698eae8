import type { FastifyInstance } from 'fastify';
import getRawBody from 'raw-body';
import { BODY_LIMIT_BYTES, RawBodyRequest } from '../infrastructure/http/json-body-parser';

/**
 * Form bodies (`application/x-www-form-urlencoded`) for `routes` only (a telephony provider's
 * callbacks, docs/real-calls.md): parsed into a record of their fields, the text kept as `rawBody`.
 * Every other route refuses them as it refuses every type but JSON.
 */
export function installFormBodyParser(fastify: FastifyInstance, routes: readonly string[]): void {
  fastify.addContentTypeParser('application/x-www-form-urlencoded', (req, payload, done) => {
    if (req.is404) return done(null, undefined);
    if (!routes.includes(req.routeOptions.url ?? '')) return done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
    getRawBody(payload, { length: req.headers['content-length'], limit: BODY_LIMIT_BYTES, encoding: 'utf8' }).then(
      (text) => {
        (req as RawBodyRequest).rawBody = text;
        // Object.fromEntries defines keys as own properties: a `__proto__` field is a field like any other.
        done(null, Object.fromEntries(new URLSearchParams(text)));
      },
      (error: Error) => done(error, undefined),
    );
  });
}
