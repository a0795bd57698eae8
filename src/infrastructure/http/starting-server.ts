import { createServer } from 'node:http';

/**
 * The port while the service starts (its projections catching up with the store can take
 * minutes): liveness answers 200 at once, readiness and everything else 503 with `Retry-After`,
 * so an orchestrator or proxy sees a live process that is not ready yet, and a proxy sends the
 * request to another replica. Closed just before the application takes the port.
 */
export async function listenWhileStarting(port: number, host: string): Promise<{ close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const live = req.method === 'GET' && req.url?.split('?')[0] === '/health/live';
    const ready = req.url?.startsWith('/health');
    res.writeHead(live ? 200 : 503, { 'content-type': 'application/json; charset=utf-8', connection: 'close', ...(live ? {} : { 'retry-after': '5' }) });
    res.end(JSON.stringify(live ? { status: 'ok' } : ready ? { status: 'starting' } : { message: 'Service is starting.' }));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
