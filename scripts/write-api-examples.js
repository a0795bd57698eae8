'use strict';
/** Starts the built service on a fresh data directory, walks the API tour and writes the documented examples. */
const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..');
const SECRET = 'telephony-secret-for-examples';

async function main(apiTour, startTarget) {
  const target = await startTarget(SECRET);
  const dataDir = mkdtempSync(join(tmpdir(), 'api-examples-'));
  const port = 3000 + Math.floor(Math.random() * 20000);
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'error',
    TELEPHONY_SECRET: SECRET,
    DIALER: 'http',
    DIALER_URL: `${target.url}/dial`,
    ALLOW_PRIVATE_TARGETS: 'true',
    // The walk dials at whatever hour it runs.
    DEFAULT_QUIET_HOURS: 'none',
    DIAL_INTERVAL_MS: '50',
    WEBHOOK_RETRY_DELAYS: '1',
  };
  const service = spawn(process.execPath, [join(root, 'dist/main.js')], { env, stdio: 'inherit' });
  try {
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (
        await fetch(`${url}/health/ready`)
          .then((r) => r.ok)
          .catch(() => false)
      )
        break;
      if (i > 150) throw new Error('the service did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const user = JSON.parse(
      execFileSync(process.execPath, [join(root, 'dist/cli/main.js'), 'users:create', '--email', 'owner@example.com'], { env }).toString(),
    );
    const examples = {};
    for (const exchange of await apiTour(url, user.token, SECRET, target)) {
      const byStatus = (examples[`${exchange.method} ${exchange.route}`] ??= {});
      (byStatus[exchange.status] ??= []).push({ request: exchange.body, answer: exchange.answer });
    }
    // Loopback addresses of this run read as a deployment's would.
    const text = JSON.stringify(examples, null, 2)
      .replaceAll(url, 'http://localhost:3000')
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'https://crm.example.com');
    writeFileSync(join(root, 'src/api-docs/examples.json'), `${text}\n`);
    process.stdout.write(`${Object.keys(examples).length} routes\n`);
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { main };
