// docs/imports.md at scale: one CSV of 1,000,000 rows (BENCH_SCALE scales it) posted to the import
// route of the built service, streamed from a file. Measures leads per second from the first byte
// sent to the import's end, the service's RSS before and at its highest while it runs, and what the
// same rows cost SQLite alone (import-storage-floor.js).
'use strict';
const { createReadStream, createWriteStream, mkdtempSync, rmSync } = require('node:fs');
const { once } = require('node:events');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { startService, rssMb, cli } = require('./service');
const { phone, assistantBody } = require('./load');
const { measure: storageFloor } = require('./import-storage-floor');

/** Writes the CSV: a number, a name and a city per row, every number new. */
async function writeCsv(file, rows) {
  const out = createWriteStream(file);
  out.write('phone_number,first_name,city\n');
  for (let i = 0; i < rows; i++) if (!out.write(`${phone(i)},Name${i},City${i % 97}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

async function leadImport({ rows, log }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const file = join(dataDir, 'leads.csv');
  await writeCsv(file, rows);
  const env = { DATA_DIR: dataDir };
  const { token } = await cli(env, 'users:create', '--email', 'import@example.com');
  const service = await startService(env);
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const json = async (method, path, body) =>
    (await fetch(`${service.url}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  try {
    const assistant = (await json('POST', '/api/user/assistant', assistantBody('Importer'))).data.id;
    const campaign = (await json('POST', '/api/user/campaigns', { name: 'Imported', assistant_id: assistant })).data.id;
    const rssBefore = rssMb(service.pid);
    let rssMax = rssBefore;
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(service.pid))), 250);
    const started = performance.now();
    const posted = await fetch(`${service.url}/api/user/campaigns/${campaign}/leads/import`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv' },
      body: createReadStream(file),
      duplex: 'half',
    });
    const { data } = await posted.json();
    const uploadedSeconds = (performance.now() - started) / 1000;
    let status;
    for (;;) {
      status = await (await fetch(`${service.url}/api/user/lead-imports/${data.id}`, { headers })).json();
      if (status.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const figure = {
      name: `lead import, ${rows} CSV rows`,
      status: status.status,
      accepted: status.accepted,
      upload_seconds: Number(uploadedSeconds.toFixed(1)),
      seconds: Number(seconds.toFixed(1)),
      leads_per_second: Math.round(status.accepted / seconds),
      rss_before_mb: Math.round(rssBefore),
      rss_max_mb: Math.round(rssMax),
      rss_growth_mb: Math.round(rssMax - rssBefore),
    };
    await service.stop();
    // The same rows written by plain statements alone, in the same minutes: the least an import can take.
    const floor = storageFloor(dataDir, rows);
    figure.storage_floor_us_per_row = { events: round1(floor.events), read_model: round1(floor.read), both: round1(floor.both) };
    figure.storage_floor_leads_per_second = Math.round(1e6 / floor.both);
    log('lead import', JSON.stringify(figure));
    return figure;
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const round1 = (x) => Number(x.toFixed(1));

module.exports = { leadImport };
