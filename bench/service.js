// Starts the built service (and the adapter app) as a child process and reads its memory and CPU from /proc.
const { spawn, execFile } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { basename, join } = require('node:path');
const { promisify } = require('node:util');

const root = join(__dirname, '..');
const run = promisify(execFile);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The node flags `npm start` runs the service with: the bench measures the service as it is run. */
function startFlags() {
  const start = require('../package.json').scripts.start.match(/exec node (.*?)\s*dist\/main\.js/);
  if (!start) throw new Error('package.json: the start script no longer runs `exec node … dist/main.js`');
  return start[1].split(/\s+/).filter(Boolean);
}

/** With BENCH_CPU_PROFILE_DIR, the service writes a V8 CPU profile of each thread there when it stops. */
const profiled = () => (process.env.BENCH_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`] : []);

async function startService(env) {
  return startListening(
    () => [...startFlags(), ...profiled(), join(root, 'dist/main.js')],
    '/health/ready',
    (port, url) => ({
      ...process.env,
      LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '10000000',
      PUBLIC_URL: url,
      // The bench dials at whatever hour it runs.
      DEFAULT_QUIET_HOURS: 'none',
      ...env,
      PORT: String(port),
    }),
  );
}

/** Whether a child has ended, by its own exit or by a signal (then its exit code stays null). */
const ended = (child) => child.exitCode !== null || child.signalCode !== null;

/** Starts a node process told a free port (by its arguments or its environment) and waits until `readyPath` answers 200. */
async function startListening(argsFor, readyPath, envFor = () => process.env) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = argsFor(port);
  const child = spawn(process.execPath, args, { env: envFor(port, url), stdio: ['ignore', 'ignore', 'inherit'] });
  for (const deadline = Date.now() + 600_000; ;) {
    if (ended(child)) throw new Error(`${basename(args[0])} exited with ${child.exitCode ?? child.signalCode}`);
    try {
      if ((await fetch(`${url}${readyPath}`)).ok) break;
    } catch {
      /* not yet listening */
    }
    if (Date.now() > deadline) throw new Error(`${basename(args[0])} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid,
    // A child a signal ended (killed, out of memory) has ended too: waiting for its exit would
    // wait for nothing, and the bench would end without a word.
    stop: () => new Promise((resolve) => (ended(child) ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))),
  };
}

/** The small app the HTTP adapters are compared on (`adapter-app.js`), on `fastify` or `express`. */
function startAdapterApp(adapter) {
  return startListening((port) => [join(__dirname, 'adapter-app.js'), adapter, String(port)], '/constant');
}

/** Resident set size of a process, in MB. */
function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** User + system CPU seconds a process has used so far, all its threads. */
function cpuSeconds(pid) {
  return cpuSecondsIn(`/proc/${pid}/stat`);
}

/** The same for its main thread alone (whose id is the process's), where Node runs the JavaScript. */
function mainThreadCpuSeconds(pid) {
  return cpuSecondsIn(`/proc/${pid}/task/${pid}/stat`);
}

/** User + system CPU seconds in a `/proc` stat file, of a process or of one thread. */
function cpuSecondsIn(file) {
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** The CLI as the README runs it (`npm run cli -- …`, with the node options of that script); answers its JSON line. */
async function cli(env, ...args) {
  const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', ...args], { env: { ...process.env, ...env }, cwd: root, maxBuffer: 1 << 30 });
  return JSON.parse(stdout.trim().split('\n').pop());
}

/** The API as a user of the running service calls it: `(method, path, body)` → the answer's JSON, throwing on a non-2xx. */
function api(service, token) {
  return async (method, path, body) => {
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: body && JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

module.exports = {
  api,
  startFlags,
  startService,
  startAdapterApp,
  rssMb,
  cpuSeconds,
  mainThreadCpuSeconds,
  cpuSecondsIn,
  cli,
};
