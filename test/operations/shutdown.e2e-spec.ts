import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, IncomingMessage, request as httpRequest } from 'node:http';
import { once } from 'node:events';
import { AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import { loadServiceConfig } from '../../src/service-config';

describe('shutdown', () => {
  it('answers a request still running when the shutdown begins with Connection: close, so the shutdown does not wait out the keep-alive', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voice-shutdown-'));
    const app = await createApp(loadServiceConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir }));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    // A route of the same Fastify instance that answers when the test says so.
    app
      .getHttpAdapter()
      .getInstance()
      .get('/test/slow', async () => {
        started();
        await released;
        return { ok: true };
      });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const agent = new Agent({ keepAlive: true });
    try {
      const response = new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest(`http://127.0.0.1:${port}/test/slow`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res));
        });
        req.on('error', reject);
        req.end();
      });
      await running;
      const closed = app.close();
      // The close is under way before the request answers.
      await new Promise((r) => setTimeout(r, 200));
      release();
      const res = await response;
      expect(res.statusCode).toBe(200);
      expect(res.headers.connection).toBe('close');
      await closed;
    } finally {
      release();
      agent.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('cuts off a client that never finishes its request, once the answers still due have had their time', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voice-shutdown-'));
    // No write waits for its projection here, so the grace is the margin alone.
    const app = await createApp(loadServiceConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, READ_YOUR_WRITES_TIMEOUT_MS: '0' }));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    try {
      await once(socket, 'connect');
      socket.on('error', () => undefined);
      // The request line and a header, never the blank line that ends the headers.
      socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
      const cutOff = once(socket, 'close');
      await app.close();
      await cutOff;
    } finally {
      socket.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
