import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** A webhook or tool endpoint on loopback; `answer` decides each reply from what came in. */
export class Receiver {
  readonly received: Received[] = [];
  private server!: Server;
  url = '';

  constructor(private readonly answer: (request: Received, countForPath: number) => { status: number; body?: unknown; delayMs?: number }) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        let body: unknown = raw;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          /* keep the text */
        }
        const request = { path: req.url!, method: req.method!, headers: req.headers, raw, body };
        this.received.push(request);
        const count = this.received.filter((r) => r.path.split('?')[0] === request.path.split('?')[0]).length;
        const { status, body: reply, delayMs } = this.answer(request, count);
        setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(reply === undefined ? '' : JSON.stringify(reply)), delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  to(path: string): Received[] {
    return this.received.filter((r) => r.path.split('?')[0] === path);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}
