import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = join(__dirname, '..', '..');
const run = promisify(execFile);

/** Runs the built CLI (`npm run cli -- ...`) and returns its parsed JSON line. */
export async function cli(env: Record<string, string>, ...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(root, 'dist/cli/main.js'), ...args], {
      env: { ...process.env, ...env },
      cwd: root,
    });
    return { code: 0, json: JSON.parse(stdout.trim().split('\n').pop()!), stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    // A result that reports a failure (exit 1) is on stdout; an error, on stderr.
    const line = (e.stdout.trim() || e.stderr.trim()).split('\n').pop() ?? '';
    let json: unknown = line;
    try {
      json = JSON.parse(line);
    } catch {
      /* usage text */
    }
    return { code: e.code, json, stderr: e.stderr };
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts the built service (`npm start`) as a child process and waits until it is ready. */
export async function startService(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; stdout(): string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist/main.js')], {
    env: {
      ...process.env,
      LOG_LEVEL: 'error',
      DEFAULT_QUIET_HOURS: 'none',
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
      PORT: String(port),
    },
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => (stdout += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`service exited with ${child.exitCode ?? child.signalCode}: ${stderr}`);
    try {
      if ((await fetch(`${url}/health/ready`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`service did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    stdout: () => stdout,
    stop: () =>
      new Promise<void>((resolve) => {
        // Ended by a signal (a test's SIGKILL), its exit code stays null: it has ended all the same.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
