import { AddressInfo, createServer } from 'node:net';
import { listenWhileStarting } from './starting-server';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

describe('the port while the service starts', () => {
  it('answers liveness at once, readiness and every other request 503 with Retry-After, then gives the port back', async () => {
    const port = await freePort();
    const starting = await listenWhileStarting(port, '127.0.0.1');
    const get = (path: string) =>
      fetch(`http://127.0.0.1:${port}${path}`).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), body: await r.json() }));
    expect(await get('/health/live')).toEqual({ status: 200, retry: null, body: { status: 'ok' } });
    expect(await get('/health/ready')).toEqual({ status: 503, retry: '5', body: { status: 'starting' } });
    expect(await get('/health')).toEqual({ status: 503, retry: '5', body: { status: 'starting' } });
    expect(await get('/api/user/me')).toEqual({ status: 503, retry: '5', body: { message: 'Service is starting.' } });
    await starting.close();
    // The port is free again for the service itself.
    await new Promise<void>((resolve, reject) => {
      const again = createServer()
        .once('error', reject)
        .listen(port, '127.0.0.1', () => again.close(() => resolve()));
    });
  });
});
