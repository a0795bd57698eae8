import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A reverse proxy on loopback in front of several service instances, as a load balancer is:
 * each request goes to the next instance in turn, and to the one after when it cannot connect.
 */
export class RoundRobinProxy {
  backends: string[] = [];
  /** Requests each backend answered. */
  readonly served = new Map<string, number>();
  private next = 0;
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const attempt = (left: number) => {
          const backend = this.backends[this.next++ % this.backends.length];
          const out = request(`${backend}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
            this.served.set(backend, (this.served.get(backend) ?? 0) + 1);
            // Hop-by-hop headers stay with their hop (RFC 9110 §7.6.1): the instance's `Keep-Alive:
            // timeout=72` passed on let clients reuse a connection this proxy closes after 5 s.
            const { connection: _connection, 'keep-alive': _keepAlive, ...headers } = answer.headers;
            res.writeHead(answer.statusCode!, headers);
            answer.pipe(res);
          });
          out.on('error', () => (left > 1 ? attempt(left - 1) : res.writeHead(502).end()));
          out.end(body);
        };
        attempt(this.backends.length);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
