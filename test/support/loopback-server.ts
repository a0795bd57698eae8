import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** A fake vendor on 127.0.0.1: its routes in `handle`, and the work it started on its own (`track`) awaited before it stops. */
export abstract class LoopbackServer {
  url = '';
  private server!: Server;
  private readonly pending = new Set<Promise<void>>();

  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.beforeStop();
    await Promise.all(this.pending);
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Whether everything it started on its own (a call's messages) has ended. */
  get idle(): boolean {
    return this.pending.size === 0;
  }

  protected beforeStop(): void {}

  protected track(run: Promise<void>): void {
    const tracked = run.catch(() => undefined);
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }
}
