import { execFile, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cli, freePort, startService } from '../support/processes';

const root = join(__dirname, '..', '..');
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The README's commands as a user runs them (docs/api.md): `npm start`, `npm run cli`. */
describe('npm start and the CLI', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('npm run --silent cli prints only its JSON result on stdout (without --silent, npm adds its banner above it), and --help for each command', async () => {
    const env = { ...process.env, DATA_DIR: dataDir };
    const { stdout } = await run(npm, ['run', '--silent', 'cli', '--', 'users:create', '--email', 'piped@example.com'], { cwd: root, env });
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(stdout)).toMatchObject({ email: 'piped@example.com', token: expect.any(String) });
    const bannered = await run(npm, ['run', 'cli', '--', 'users:create', '--email', 'bannered@example.com'], { cwd: root, env });
    expect(JSON.parse(bannered.stdout.trim().split('\n').pop()!)).toMatchObject({ email: 'bannered@example.com' });
    const help = (...args: string[]) =>
      spawnSync(process.execPath, [join(root, 'dist/cli/main.js'), ...args], { encoding: 'utf8', env: { ...process.env, DATA_DIR: dataDir } });
    for (const command of ['users:create', 'tokens:create', 'tokens:revoke', 'campaigns:history', 'leads:import', 'projections:rebuild']) {
      const asked = help(command, '--help');
      expect({ status: asked.status, stderr: asked.stderr }).toEqual({ status: 0, stderr: '' });
      expect(asked.stdout).toContain(`  ${command} `);
      expect(asked.stdout.match(/^ {2}\S+:\S+/gm)).toHaveLength(1);
    }
    expect(help('campaigns:history', '--help').stdout).toContain('campaigns:history <id> [--as-of <ISO 8601>]');
    expect(help('--help').stdout.match(/^ {2}\S+:\S+/gm)).toHaveLength(9);
    expect(help('no-such-command')).toMatchObject({ status: 64, stdout: '' });
  });

  it('installs quietly: npm answers in its own words, not JSON, and no install script reports home', async () => {
    const { stdout } = await run(npm, ['config', 'get', 'json'], { cwd: root, env: process.env });
    expect(stdout.trim()).toBe('false');
    // swagger-ui-dist's @scarf/scarf reads this setting of the root package (its README, "opt out").
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scarfSettings).toEqual({ enabled: false });
  });

  it('stops the service when npm start gets SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(npm, ['start'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${port}/health/ready`;
    for (const deadline = Date.now() + 20_000; ;) {
      if ((await fetch(url).catch(() => null))?.ok) break;
      if (Date.now() > deadline) throw new Error('npm start did not serve');
      await new Promise((r) => setTimeout(r, 100));
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await expect(fetch(url)).rejects.toThrow();
  });

  it('refuses to rebuild the read models while a service runs on the store, and rebuilds once it stopped', async () => {
    const service = await startService({ DATA_DIR: dataDir });
    try {
      const refused = await cli({ DATA_DIR: dataDir }, 'projections:rebuild');
      expect(refused.code).toBe(1);
      expect(refused.json.message).toMatch(
        /^A service is running on this store \(process \d+ on .+\): stop every service before rebuilding the read models\.$/,
      );
    } finally {
      await service.stop();
    }
    expect((await cli({ DATA_DIR: dataDir }, 'projections:rebuild')).code).toBe(0);
  });

  it('refuses to start the real dialer with the default telephony secret (exit 78)', () => {
    const started = spawnSync(process.execPath, [join(root, 'dist/main.js')], {
      env: { ...process.env, DATA_DIR: dataDir, DIALER: 'http', DIALER_URL: 'http://127.0.0.1:9/dial', TELEPHONY_SECRET: '', LOG_LEVEL: 'error' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(started.status).toBe(78);
    expect(started.stderr).toContain('TELEPHONY_SECRET must be set to a secret of your own when DIALER=http');
  });
});

/** scripts/build.js on a copy of the sources: the repository's own dist/ is used by the other suites meanwhile. */
describe('the build', () => {
  const copy = mkdtempSync(join(tmpdir(), 'voice-build-'));
  beforeAll(() => {
    for (const entry of ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'])
      cpSync(join(root, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  const build = (...args: string[]) => run(process.execPath, [join(copy, 'scripts/build.js'), ...args], { cwd: copy });
  const builtAt = () => readFileSync(join(copy, 'dist/.built-at'), 'utf8');

  it('builds once for concurrent starts, keeps dist whole while it builds again, and skips a build that is current', async () => {
    await Promise.all([build('--if-stale'), build('--if-stale'), build('--if-stale')]);
    const first = builtAt();
    await build('--if-stale');
    expect(builtAt()).toBe(first);

    // A source newer than the build: the next start builds again, and dist/ is never missing meanwhile.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(copy, 'src/main.ts'), later, later);
    let missing = 0;
    let rebuilding = true;
    const watching = (async () => {
      while (rebuilding) {
        if (!existsSync(join(copy, 'dist/main.js')) || !existsSync(join(copy, 'dist/cli/main.js'))) missing++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    await build('--if-stale');
    rebuilding = false;
    await watching;
    expect(missing).toBe(0);
    expect(Number(builtAt())).toBeGreaterThan(Number(first));
    expect(existsSync(join(copy, '.build.lock'))).toBe(false);
  }, 120_000);

  it('keeps the build it links and the two before it, and leaves a folder under .builds/ that is not a build', async () => {
    await build('--if-stale');
    mkdirSync(join(copy, '.builds/kept-by-hand'));
    for (let i = 0; i < 2; i++) {
      const later = new Date(Date.now() + 5000 * (i + 2));
      utimesSync(join(copy, 'src/main.ts'), later, later);
      await build('--if-stale');
    }
    expect(existsSync(join(copy, 'dist/main.js'))).toBe(true);
    const folders = readdirSync(join(copy, '.builds'));
    expect(folders).toContain('kept-by-hand');
    const kept = folders.filter((name) => name !== 'kept-by-hand').sort((a, b) => Number(a.split('-')[0]) - Number(b.split('-')[0]));
    expect(kept).toHaveLength(3);
    expect(readlinkSync(join(copy, 'dist'))).toBe(join('.builds', kept[2]));
  }, 180_000);
});
