import { FastifyInstance } from 'fastify';

/**
 * Once the server is closing, every answer asks the client to close its connection. The
 * server closes connections idle when it starts closing, but one busy then (a request
 * answering during the shutdown) would otherwise stay open, idle, for the keep-alive
 * timeout (72 s), and the shutdown would wait for it.
 */
export function closeConnectionsOnShutdown(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
