import { FastifyInstance } from 'fastify';

/**
 * Once the server is closing, every answer asks the client to close its connection. The
 * server closes connections idle when it starts closing, but one busy then (a request
 * answering during the shutdown) would otherwise stay open, idle, for the keep-alive
 * timeout (72 s), and the shutdown would wait for it.
 *
 * A connection whose client never finishes its request would hold the shutdown for minutes
 * (until Node's request timeouts): once the answers still due have had `graceMs`, every
 * connection left is cut off.
 */
export function closeConnectionsOnShutdown(fastify: FastifyInstance, graceMs: number): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    const cutOff = setTimeout(() => fastify.server.closeAllConnections(), graceMs);
    cutOff.unref();
    fastify.server.once('close', () => clearTimeout(cutOff));
    done();
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
