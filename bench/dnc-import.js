// docs/imports.md at scale: a do-not-call list grown to 10,000,000 numbers (BENCH_SCALE scales it) by
// plain-text imports posted to the built service. When the list holds 10k, 1M and 10M numbers: what
// one import row cost (the stage's rows over its seconds, and over its last tenth alone), one add
// (`POST /api/user/dnc` of one new number) and one check at claim time (DoNotCallQueries.listed,
// timed in a process of its own by dnc-check.js).
'use strict';
const { execFile } = require('node:child_process');
const { once } = require('node:events');
const { createReadStream, createWriteStream, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { promisify } = require('node:util');
const { startService, rssMb, cli } = require('./service');
const { dncNumber } = require('./dnc-numbers');

const run = promisify(execFile);

async function writeNumbers(file, from, to) {
  const out = createWriteStream(file);
  for (let i = from; i < to; i++) if (!out.write(`${dncNumber(i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function dncImport({ sizes, log }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-dnc-'));
  const env = { DATA_DIR: dataDir };
  const user = await cli(env, 'users:create', '--email', 'dnc@example.com');
  const service = await startService(env);
  const headers = { authorization: `Bearer ${user.token}`, accept: 'application/json' };
  /** One figure per size the list reached. */
  const stages = [];
  let extra = 0;
  try {
    let listed = 0;
    for (const size of sizes) {
      const file = join(dataDir, `numbers-${size}.txt`);
      await writeNumbers(file, listed, size);
      const rows = size - listed;
      const started = performance.now();
      const posted = await fetch(`${service.url}/api/user/dnc/import`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/plain' },
        body: createReadStream(file),
        duplex: 'half',
      });
      const { data } = await posted.json();
      // Progress seen through the import's own record: the rate over the stage's last tenth.
      let status;
      let lastTenth = null;
      for (;;) {
        status = await (await fetch(`${service.url}/api/user/dnc-imports/${data.id}`, { headers })).json();
        if (lastTenth === null && status.rows >= rows * 0.9) lastTenth = { at: performance.now(), rows: status.rows };
        if (status.status !== 'running') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const seconds = (performance.now() - started) / 1000;
      const tailSeconds = lastTenth && (performance.now() - lastTenth.at) / 1000;
      rmSync(file);
      if (status.accepted !== rows) throw new Error(`import of ${rows} numbers: ${JSON.stringify(status)}`);
      listed = size;
      const adds = [];
      for (let i = 0; i < 200; i++, extra++) {
        const at = performance.now();
        const res = await fetch(`${service.url}/api/user/dnc`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ phone_numbers: [dncNumber(30_000_000 + extra)] }),
        });
        if ((await res.json()).added !== 1) throw new Error('an add listed nothing');
        adds.push(performance.now() - at);
      }
      adds.sort((a, b) => a - b);
      const { stdout } = await run(process.execPath, [join(__dirname, 'dnc-check.js'), String(user.id), '0', String(size), '2000'], {
        env: { ...process.env, ...env, LOG_LEVEL: 'error' },
      });
      const check = JSON.parse(stdout.trim().split('\n').pop());
      const stage = {
        name: `do-not-call list at ${size} numbers`,
        list_size: size,
        rows_imported: rows,
        import_seconds: Number(seconds.toFixed(1)),
        import_row_us: Math.round((seconds * 1e6) / rows),
        import_row_us_last_tenth: tailSeconds && lastTenth.rows < rows ? Math.round((tailSeconds * 1e6) / (rows - lastTenth.rows)) : null,
        add_ms_median: Number(quantile(adds, 0.5).toFixed(2)),
        add_ms_p99: Number(quantile(adds, 0.99).toFixed(2)),
        check_us_median: check.median_us,
        check_us_p99: check.p99_us,
        rss_mb: Math.round(rssMb(service.pid)),
      };
      log('dnc import', JSON.stringify(stage));
      stages.push(stage);
    }
    return stages;
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { dncImport };
