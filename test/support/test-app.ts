import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import { AppConfig } from '../../src/infrastructure/config/app-config';
import { loadServiceConfig } from '../../src/service-config';
import { RegisterUser, RegisteredUser } from '../../src/users/commands/register-user';
import { Clock } from '../../src/shared/clock';
import { freePort } from './processes';

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  config: AppConfig;
  dataDir: string;
  routes: Array<{ method: string; url: string }>;
  createUser(email?: string, toolLimit?: number): Promise<RegisteredUser>;
  request(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<TestResponse>;
  /** Stops the app; the data directory stays so a restart can open it. */
  stop(): Promise<void>;
  /** Stops the app and removes its data directory. */
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

let userCounter = 0;

/** Data directories made here: a test that restarts an app on its directory keeps it past `close`, so each is removed after the file's tests. */
const madeHere: string[] = [];
afterAll(() => {
  for (const dir of madeHere.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'voice-e2e-'));
  madeHere.push(dir);
  return dir;
}

/** Starts the real service on a loopback port with its own data directory. */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { dataDir?: string; clock?: Clock; background?: boolean; port?: number } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? newDataDir();
  // The port is chosen first so that the URLs the service hands out (callbacks, page links) reach it.
  const port = options.port ?? (await freePort());
  const config = loadServiceConfig({
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_TARGETS: 'true',
    // Tests dial at whatever hour they run; those about quiet hours set their own.
    DEFAULT_QUIET_HOURS: 'none',
    RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...env,
    DATA_DIR: dataDir,
    PORT: String(port),
  });
  const app = await createApp(config, options.clock, options.background);
  const routes: Array<{ method: string; url: string }> = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
  await app.listen(port, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;

  const request: TestApp['request'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const res = await fetch(`${url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
  };
  return {
    app,
    url,
    config,
    dataDir,
    routes,
    request,
    createUser: (email = `user${++userCounter}-${Date.now()}@example.com`, toolLimit?: number) =>
      app.get(CommandBus).execute(new RegisterUser(email, toolLimit)),
    stop,
    close: async () => {
      await stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
