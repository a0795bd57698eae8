import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger as Pino } from 'pino';
import type { Options } from 'pino-http';

const ROUTE = Symbol('route');
const USER = Symbol('user');
type Noted = IncomingMessage & { [ROUTE]?: string; [USER]?: number };

/** An incoming `X-Request-Id` is kept when it is a plain token; anything else gets a new id. */
const GIVEN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the request's id, from `X-Request-Id` or new. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
}

/**
 * Echoes each request's id, and marks the request with the route that matched (its pattern:
 * paths and queries may hold phone numbers). Registered before Nest's middleware, so the
 * request's log line can name it.
 */
export function noteRequests(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    (request.raw as Noted)[ROUTE] = request.routeOptions.url ?? 'unmatched';
    done();
  });
}

/** Notes the user a request was authenticated as, for its log line. */
export function noteUser(raw: unknown, userId: number): void {
  if (raw && typeof raw === 'object') (raw as Noted)[USER] = userId;
}

/**
 * pino-http's settings: one line a request when it ends, with the request id (echoed in
 * `X-Request-Id`), method, route, status, duration and user id; never headers, queries or bodies.
 */
export function requestLogOptions(logger: Pino): Options {
  return {
    logger,
    // Fastify gives each request its id first (`requestId`); this only serves requests it did not.
    genReqId: requestId,
    wrapSerializers: false,
    serializers: {
      req: (req: Noted & { id?: unknown }) => ({ id: req.id, method: req.method, route: req[ROUTE] }),
      res: (res: ServerResponse) => ({ status: res.statusCode }),
    },
    customAttributeKeys: { responseTime: 'duration_ms' },
    customProps: (req: IncomingMessage) => ((req as Noted)[USER] === undefined ? {} : { user_id: (req as Noted)[USER] }),
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
  };
}
