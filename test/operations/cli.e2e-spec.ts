import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, startService } from '../support/processes';

/** Runs the built service to its end, for a start that fails: its exit code and what it wrote to stderr. */
const startToFail = (env: Record<string, string>) =>
  spawnSync(process.execPath, [join(__dirname, '..', '..', 'dist', 'main.js')], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });

/** The README's way: the built service as its own process, users and tokens made by the CLI. */
describe('service and CLI as separate processes on one data directory', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'voice-cli-'));
    env = { DATA_DIR: dataDir };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a user whose token passes the running service, issues and revokes tokens', async () => {
    const created = await cli(env, 'users:create', '--email', 'Owner@Example.com', '--tool-limit', '4');
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      id: 1,
      email: 'owner@example.com',
      token: expect.any(String),
      webhook_secret: expect.any(String),
      organisation_id: 1,
      role: 'owner',
    });

    const service = await startService(env);
    try {
      const me = (token: string) => fetch(`${service.url}/api/user/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(await (await me(created.json.token)).json()).toEqual({ id: 1, email: 'owner@example.com', tool_limit: 4, organisation_id: 1, role: 'owner' });

      // Written by another process while the service runs: the token works on the next request.
      const issued = await cli(env, 'tokens:create', '--user', '1');
      expect(issued.json).toEqual({ token: expect.any(String) });
      expect((await me(issued.json.token)).status).toBe(200);

      expect((await cli(env, 'tokens:revoke', '--token', created.json.token)).json).toEqual({ revoked: true });
      const refused = await me(created.json.token);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ message: 'Unauthenticated.' });
      expect((await me(issued.json.token)).status).toBe(200);

      const second = await cli(env, 'users:create', '--email', 'second@example.com');
      expect(second.json.id).toBe(2);
      expect((await me(second.json.token)).status).toBe(200);

      // docs/teams.md: the operator adds a member to an organisation; it shares the organisation's plan.
      const member = await cli(env, 'members:add', '--organisation', '1', '--email', 'Mate@Example.com', '--role', 'editor');
      expect(member.code).toBe(0);
      expect(member.json).toMatchObject({ id: 3, email: 'mate@example.com', organisation_id: 1, role: 'editor', token: expect.any(String) });
      expect(await (await me(member.json.token)).json()).toEqual({ id: 3, email: 'mate@example.com', tool_limit: 4, organisation_id: 1, role: 'editor' });
      expect(await cli(env, 'members:add', '--organisation', '1', '--email', 'x@example.com', '--role', 'boss')).toMatchObject({ code: 64 });
      expect(await cli(env, 'members:add', '--organisation', '99', '--email', 'y@example.com', '--role', 'viewer')).toMatchObject({ code: 1 });
    } finally {
      await service.stop();
    }
  });

  it("sets a user's quiet hours beyond the floor, or lifts them, seen at once by the running service", async () => {
    const created = await cli(env, 'users:create', '--email', 'quiet@example.com');
    const service = await startService(env);
    try {
      const settings = async () =>
        (await (await fetch(`${service.url}/api/user/settings`, { headers: { authorization: `Bearer ${created.json.token}` } })).json()) as {
          quiet_hours: unknown;
        };
      // The service the test starts has no floor (DEFAULT_QUIET_HOURS=none); the operator sets one, wider than a user may.
      const wide = await cli(env, 'users:quiet-hours', '--user', String(created.json.id), '--start', '07:00', '--end', '22:30');
      expect(wide).toMatchObject({ code: 0, json: { user_id: created.json.id, quiet_hours: { start: '07:00', end: '22:30' } } });
      expect((await settings()).quiet_hours).toEqual({ start: '07:00', end: '22:30' });
      const lifted = await cli(env, 'users:quiet-hours', '--user', String(created.json.id), '--unrestricted');
      expect(lifted.json).toEqual({ user_id: created.json.id, quiet_hours: null });
      expect((await settings()).quiet_hours).toBeNull();
      expect(await cli(env, 'users:quiet-hours', '--user', String(created.json.id), '--start', '7')).toMatchObject({ code: 64 });
      expect(await cli(env, 'users:quiet-hours', '--user', String(created.json.id), '--unrestricted', '--start', '07:00', '--end', '08:00')).toMatchObject({
        code: 64,
      });
    } finally {
      await service.stop();
    }
  });

  it('refuses bad CLI input with a message and a non-zero exit', async () => {
    expect(await cli(env, 'users:create', '--email', 'owner@example.com')).toMatchObject({
      code: 1,
      json: { message: 'Validation failed', errors: { email: ['The email has already been taken.'] } },
    });
    expect(await cli(env, 'users:create', '--email', 'not-an-email')).toMatchObject({ code: 1 });
    expect(await cli(env, 'users:create')).toMatchObject({ code: 64 });
    expect(await cli(env, 'tokens:create', '--user', '99')).toMatchObject({ code: 1, json: { message: 'User not found' } });
    expect(await cli(env, 'tokens:revoke', '--token', 'nope')).toMatchObject({ code: 1, json: { message: 'Token not found' } });
    expect(await cli(env, 'no-such-command')).toMatchObject({ code: 64 });
  });

  it('rebuilds the read models from the events and the tokens still work afterwards', async () => {
    const rebuilt = await cli(env, 'projections:rebuild');
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.json).toMatchObject({
      projections: expect.arrayContaining(['users', 'tools', 'assistants', 'phone_numbers']),
      events: expect.any(Number),
      events_per_second: expect.any(Number),
    });
    expect(rebuilt.json.events).toBeGreaterThanOrEqual(6);
    const again = await cli(env, 'projections:rebuild', '--projection', 'users');
    expect(again.json).toMatchObject({ projections: ['users'], events: rebuilt.json.events });
    expect((await cli(env, 'projections:rebuild', '--projection', 'nope')).code).toBe(64);

    const service = await startService(env);
    try {
      const token = (await cli(env, 'tokens:create', '--user', '2')).json.token;
      expect((await fetch(`${service.url}/api/user/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  const checkpoints = () => {
    const db = new Database(join(dataDir, 'read.db'), { readonly: true });
    try {
      return new Map(
        db
          .prepare<[], { name: string; position: number }>('SELECT name, position FROM checkpoints')
          .all()
          // A rebuild's own progress is its bookkeeping; the projections' checkpoints are what services read.
          .filter((row) => !row.name.startsWith('rebuild:'))
          .map((row) => [row.name, row.position]),
      );
    } finally {
      db.close();
    }
  };

  it('leaves the read store as it was when a rebuild was cut short, and removes the file the rebuild wrote', async () => {
    const before = checkpoints();
    // A rebuild's process killed mid-way: its half-written file beside the store, named after it.
    const ended = spawnSync(process.execPath, ['-e', '0']);
    const leftover = join(dataDir, `read.db.rebuild-${ended.pid}`);
    writeFileSync(leftover, 'half written');
    const rebuilt = await cli(env, 'projections:rebuild', '--projection', 'users');
    expect(rebuilt.json).toMatchObject({ projections: ['users'], events: expect.any(Number) });
    expect(existsSync(leftover)).toBe(false);
    expect(checkpoints()).toEqual(before);
    const service = await startService(env);
    try {
      const me = await fetch(`${service.url}/api/user/me`, {
        headers: { authorization: `Bearer ${(await cli(env, 'tokens:create', '--user', '1')).json.token}` },
      });
      expect(me.status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  it('refuses to open a read store another process is rebuilding, in the CLI and the service: a message naming that process, no stack, nothing written', async () => {
    const events = () => {
      const db = new Database(join(dataDir, 'events.db'), { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM events').pluck().get();
      } finally {
        db.close();
      }
    };
    const before = events();
    // Another process rebuilding the store: its file beside it, named after it.
    const writer = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const rebuilding = join(dataDir, `read.db.rebuild-${writer.pid}`);
    writeFileSync(rebuilding, '');
    try {
      const refused = await cli(env, 'users:create', '--email', 'third@example.com');
      expect(refused).toMatchObject({ code: 1, json: { message: `read.db is being rebuilt by process ${writer.pid}; open it once that process has ended` } });
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(events()).toBe(before);
      // The service, started meanwhile, exits with the same message alone.
      await expect(startService(env)).rejects.toThrow(
        new RegExp(`^service exited with 1: read\\.db is being rebuilt by process ${writer.pid}; open it once that process has ended\\n$`),
      );
    } finally {
      writer.kill();
      await new Promise((resolve) => writer.once('exit', resolve));
    }
    // Its writer gone, the file is a leftover: removed, and the refused command can be run now.
    expect((await cli(env, 'users:create', '--email', 'third@example.com')).json).toMatchObject({ email: 'third@example.com' });
    expect(existsSync(rebuilding)).toBe(false);
  });

  it('refuses to start with a bad configuration, naming the variable', async () => {
    await expect(startService({ ...env, EVENT_STORE: 'postgres' })).rejects.toThrow('EVENT_STORE must be one of embedded, eventstoredb (got "postgres")');
  });

  it('exits 1 with the stack of a start failure it does not name', () => {
    const broken = mkdtempSync(join(tmpdir(), 'voice-broken-'));
    try {
      writeFileSync(join(broken, 'events.db'), 'not a database, but long enough to be read as a header of one');
      const run = startToFail({ DATA_DIR: broken, PORT: '0' });
      expect(run.status).toBe(1);
      const [first, ...rest] = run.stderr.trim().split('\n');
      expect(first).toBe('SqliteError: file is not a database');
      expect(rest.length).toBeGreaterThan(0);
      expect(rest.every((line) => line.startsWith('    at '))).toBe(true);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('exits 1 with one line when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const run = startToFail({ ...env, PORT: String(port) });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`);
    } finally {
      taken.close();
    }
  });
});
