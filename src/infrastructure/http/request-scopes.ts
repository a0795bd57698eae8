import { FastifyInstance } from 'fastify';
import { inRequestScope } from '../../shared/event-sourcing/actor';

/**
 * Handles every request in a scope of its own, in which a guard names its caller once
 * authenticated (`actFor`). Opened in the last hook before the handler, which Fastify calls
 * from within the hook's `done`: the handler and all it starts run in the scope.
 */
export function openRequestScopes(fastify: FastifyInstance): void {
  fastify.addHook('preHandler', (_request, _reply, done) => inRequestScope(done));
}
