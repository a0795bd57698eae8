import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadConfig } from '../config/app-config';
import { OutboundHttp, RESPONSE_BODY_LIMIT_BYTES } from './outbound-http';

describe('outbound http', () => {
  let server: Server;
  let port: number;
  const seen: Array<{ method: string; url: string; body: string; headers: Record<string, unknown> }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body, headers: req.headers });
        if (req.url === '/slow') return void setTimeout(() => res.end('late'), 400);
        if (req.url === '/big') return void res.end('x'.repeat(100 * 1024));
        if (req.url === '/to-other-loopback') return void res.writeHead(302, { location: `http://127.0.0.2:${port}/echo` }).end();
        if (req.url === '/to-echo') return void res.writeHead(307, { location: '/echo' }).end();
        if (req.url === '/to-other-origin') return void res.writeHead(307, { location: `http://localhost:${port}/echo` }).end();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, method: req.method }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const strict = new OutboundHttp(loadConfig({}));
  const open = new OutboundHttp(loadConfig({ ALLOW_PRIVATE_TARGETS: 'true' }));
  const send = (http: OutboundHttp, url: string, extra: object = {}) => http.send({ url, method: 'GET', timeoutMs: 2000, ...extra });

  it.each([
    'http://127.0.0.1:PORT/echo',
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:PORT/echo',
    'http://localhost:PORT/echo',
    'http://0.0.0.0:PORT/echo',
  ])('refuses %s unless private targets are allowed', async (template) => {
    const before = seen.length;
    await expect(send(strict, template.replace('PORT', String(port)))).rejects.toMatchObject({ kind: 'refused' });
    expect(seen.length).toBe(before);
  });

  it('refuses other schemes', async () => {
    await expect(send(open, 'file:///etc/passwd')).rejects.toMatchObject({ kind: 'refused' });
  });

  it('sends to private targets when allowed, with method, headers and body, and times the answer', async () => {
    const res = await send(open, `http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(res).toMatchObject({ status: 200, body: '{"ok":true,"method":"POST"}', durationMs: expect.any(Number) });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{"a":1}', headers: expect.objectContaining({ 'x-api-key': 'k' }) });
  });

  it('checks every redirect hop: a permitted host cannot send the request on to a refused one', async () => {
    const onlyOne = new OutboundHttp(loadConfig({}), (address) => address === '127.0.0.1');
    await expect(send(onlyOne, `http://127.0.0.1:${port}/to-other-loopback`)).rejects.toMatchObject({ kind: 'refused' });
    expect(await send(onlyOne, `http://127.0.0.1:${port}/to-echo`, { method: 'PUT', body: 'b' })).toMatchObject({
      status: 200,
      body: '{"ok":true,"method":"PUT"}',
    });
  });

  it('sends the headers on a redirect within the origin, never to another origin', async () => {
    const headers = { authorization: 'Bearer crm-token', 'x-api-key': 'k2' };
    await send(open, `http://127.0.0.1:${port}/to-echo`, { headers });
    expect(seen.at(-1)).toMatchObject({ url: '/echo', headers: expect.objectContaining({ authorization: 'Bearer crm-token', 'x-api-key': 'k2' }) });
    await send(open, `http://127.0.0.1:${port}/to-other-origin`, { method: 'POST', headers, body: '{}' });
    expect(seen.at(-2)).toMatchObject({ url: '/to-other-origin', headers: expect.objectContaining({ authorization: 'Bearer crm-token' }) });
    expect(seen.at(-1)!.url).toBe('/echo');
    expect(seen.at(-1)!.headers).not.toHaveProperty('authorization');
    expect(seen.at(-1)!.headers).not.toHaveProperty('x-api-key');
  });

  it('gives up after the timeout', async () => {
    await expect(send(open, `http://127.0.0.1:${port}/slow`, { timeoutMs: 100 })).rejects.toMatchObject({ kind: 'timeout', message: 'no answer within 0.1 s' });
  });

  it('keeps only the first 64 KiB of an answer', async () => {
    expect((await send(open, `http://127.0.0.1:${port}/big`)).body).toHaveLength(RESPONSE_BODY_LIMIT_BYTES);
  });

  it('reports a closed port as a network failure', async () => {
    await expect(send(open, 'http://127.0.0.1:1/')).rejects.toMatchObject({ kind: 'network' });
  });
});
