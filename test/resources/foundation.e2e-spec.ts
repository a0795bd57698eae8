import { startTestApp, TestApp } from '../support/test-app';

describe('foundation over HTTP', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.createUser()).token;
  });
  afterAll(() => t.close());

  describe('authentication', () => {
    it('lets a valid token through and tells whose it is', async () => {
      const res = await t.request('GET', '/api/user/me', { token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: expect.any(Number), email: expect.stringContaining('@example.com') });
    });

    it.each([
      ['no header', {}],
      ['an unknown token', { authorization: 'Bearer not-a-real-token' }],
      ['a malformed header', { authorization: 'Token abc' }],
      ['an empty bearer', { authorization: 'Bearer ' }],
    ])('answers 401 Unauthenticated. for %s', async (_, headers) => {
      const res = await t.request('GET', '/api/user/me', { headers: headers as Record<string, string> });
      expect(res).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    });

    it('guards every /api/user route, whatever its method', async () => {
      const userRoutes = t.routes.filter((r) => r.url.startsWith('/api/user') && r.method !== 'HEAD');
      expect(userRoutes.length).toBeGreaterThan(0);
      for (const route of userRoutes) {
        const path = route.url.replace(/:[a-z_]+/gi, '1');
        for (const headers of [{}, { authorization: 'Bearer wrong' }] as Array<Record<string, string>>) {
          const res = await t.request(route.method, path, { headers, body: ['GET', 'DELETE'].includes(route.method) ? undefined : {} });
          expect({ route: `${route.method} ${path}`, status: res.status, body: res.body }).toEqual({
            route: `${route.method} ${path}`,
            status: 401,
            body: { message: 'Unauthenticated.' },
          });
        }
      }
    });

    it('refuses a revoked token from the next request on', async () => {
      const { RevokeAccessToken } = await import('../../src/users/commands/revoke-access-token');
      const { CommandBus } = await import('@nestjs/cqrs');
      const other = await t.createUser();
      expect((await t.request('GET', '/api/user/me', { token: other.token })).status).toBe(200);
      await t.app.get(CommandBus).execute(new RevokeAccessToken(other.token));
      expect((await t.request('GET', '/api/user/me', { token: other.token })).status).toBe(401);
      expect((await t.request('GET', '/api/user/me', { token })).status).toBe(200);
    });
  });

  describe('error shapes', () => {
    it('answers an unknown route with 404 Not found.', async () => {
      expect(await t.request('GET', '/nope', { token })).toMatchObject({ status: 404, body: { message: 'Not found.' } });
      expect(await t.request('POST', '/api/user/nope', { token, body: {} })).toMatchObject({ status: 404, body: { message: 'Not found.' } });
    });

    it('answers a body that is not JSON with 400 Malformed JSON body.', async () => {
      const res = await t.request('POST', '/api/user/nope', { token, body: '{"a":' });
      expect(res).toMatchObject({ status: 400, body: { message: 'Malformed JSON body.' } });
    });

    it('answers a body over 1 MiB with 413 Payload too large.', async () => {
      const res = await t.request('POST', '/api/user/nope', { token, body: JSON.stringify({ a: 'x'.repeat(1024 * 1024) }) });
      expect(res).toMatchObject({ status: 413, body: { message: 'Payload too large.' } });
    });

    it('never shows a stack trace or a path', async () => {
      const res = await t.request('POST', '/api/user/nope', { token, body: '{"a":' });
      expect(JSON.stringify(res.body)).not.toMatch(/at |\/src\/|node_modules/);
      expect(res.headers.get('content-type')).toContain('application/json');
    });
  });

  describe('health', () => {
    it('reports liveness and readiness of both stores without a token', async () => {
      expect(await t.request('GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await t.request('GET', '/health')).toMatchObject({
        status: 200,
        body: { status: 'ok', checks: { event_store: 'up', read_store: 'up' } },
      });
    });
  });
});

describe('rate limit per token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('counts down in X-RateLimit headers, answers 429 Too Many Attempts. with Retry-After once a token used its minute, and counts tokens apart', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    for (let i = 0; i < 3; i++) {
      const allowed = await t.request('GET', '/api/user/me', { token: a.token });
      expect(allowed.status).toBe(200);
      expect([allowed.headers.get('x-ratelimit-limit'), allowed.headers.get('x-ratelimit-remaining')]).toEqual(['3', String(2 - i)]);
    }
    const limited = await t.request('GET', '/api/user/me', { token: a.token });
    expect(limited).toMatchObject({ status: 429, body: { message: 'Too Many Attempts.' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.request('GET', '/api/user/me', { token: b.token })).status).toBe(200);
  });
});

describe('restart on the same data directory', () => {
  it('keeps users and tokens, and projects what was written while it was down', async () => {
    const first = await startTestApp();
    const user = await first.createUser();
    await first.stop();

    const second = await startTestApp({}, { dataDir: first.dataDir });
    expect((await second.request('GET', '/api/user/me', { token: user.token })).body).toMatchObject({ id: user.id });
    const next = await second.createUser();
    expect(next.id).toBe(user.id + 1);
    await second.close();
    await first.close();
  });
});
