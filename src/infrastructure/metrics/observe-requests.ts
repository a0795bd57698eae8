import type { FastifyInstance } from 'fastify';
import { Metrics } from './metrics';

/** Every answer's duration, by the route that matched (not the path, which holds ids), method and status. */
export function observeRequests(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
