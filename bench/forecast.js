// docs/forecast.md: the forecast of a campaign of `leads` leads in 24 zones (each lead's own time,
// weekdays 09:00–17:00, two retries, 100 at once), asked as a user asks it, beside the same run's
// first lead page of that campaign; the service's memory before and after; and how long other
// requests wait while a forecast runs.
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { BulkWriter, assistantBody } = require('./load');
const { ZONES, appendZonedLead } = require('./many-campaigns');
const { startService, cli, api, rssMb } = require('./service');

async function loadZonedLeads(dataDir, { userId, campaignId, count }) {
  const store = await BulkWriter.open(dataDir);
  const at = new Date().toISOString();
  for (let i = 0; i < count; i++) await appendZonedLead(store, i, userId, campaignId, at);
  await store.close();
}

/** Seconds each of `times` requests took, one after the other. */
async function timed(call, path, times) {
  const seconds = [];
  for (let i = 0; i < times; i++) {
    const started = process.hrtime.bigint();
    await call('GET', path);
    seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  return seconds.sort((a, b) => a - b);
}

/**
 * `GET /health/live` asked back to back while one more request of `path` runs: what any other
 * request (a call's relay, a dial) waits meanwhile, as p99 and worst milliseconds.
 */
async function othersWaitDuring(service, call, path) {
  let done = false;
  const asked = call('GET', path).finally(() => (done = true));
  const waits = [];
  while (!done) {
    const started = process.hrtime.bigint();
    await (await fetch(`${service.url}/health/live`)).text();
    waits.push(Number(process.hrtime.bigint() - started) / 1e6);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await asked;
  waits.sort((a, b) => a - b);
  return { asked: waits.length, p99_ms: Number(waits[Math.floor(waits.length * 0.99)].toFixed(1)), worst_ms: Number(waits[waits.length - 1].toFixed(1)) };
}

async function forecastCost({ leads, log }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-forecast-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error' };
  let service = await startService(env);
  try {
    const user = await cli(env, 'users:create', '--email', 'forecast@example.com');
    let call = api(service, user.token);
    const assistant = (await call('POST', '/api/user/assistant', assistantBody('Forecast'))).data.id;
    const campaign = (
      await call('POST', '/api/user/campaigns', {
        name: 'Forecast',
        assistant_id: assistant,
        window_timezone: 'lead',
        calling_hours: { start: '09:00', end: '17:00' },
        calling_days: ['mon', 'tue', 'wed', 'thu', 'fri'],
        max_retries: 2,
        retry_delay_seconds: 3600,
        max_concurrent_calls: 100,
      })
    ).data.id;
    await service.stop();
    log(`loading ${leads} leads in ${ZONES.length} zones`);
    await loadZonedLeads(dataDir, { userId: user.id, campaignId: campaign, count: leads });
    service = await startService(env);
    call = api(service, user.token);
    const page = await timed(call, `/api/user/leads?campaign_id=${campaign}&per_page=100`, 50);
    const rssBefore = rssMb(service.pid);
    const forecast = await timed(call, `/api/user/campaigns/${campaign}/forecast`, 5);
    const rssAfter = rssMb(service.pid);
    const healthDuring = await othersWaitDuring(service, call, `/api/user/campaigns/${campaign}/forecast`);
    const median = (values) => values[Math.floor(values.length / 2)];
    const figure = {
      name: `forecast of a campaign of ${leads} leads in ${ZONES.length} zones`,
      seconds: Number(median(forecast).toFixed(3)),
      seconds_range: [forecast[0], forecast[forecast.length - 1]].map((s) => Number(s.toFixed(3))),
      lead_page_seconds: Number(median(page).toFixed(4)),
      ratio_to_lead_page: Number((median(forecast) / median(page)).toFixed(1)),
      rss_before_mb: rssBefore,
      rss_growth_mb: rssAfter - rssBefore,
      health_live_during_forecast: healthDuring,
      goal: 'within 1 s',
      verdict: median(forecast) <= 1 ? 'met' : 'missed',
    };
    log('forecast', JSON.stringify(figure));
    return figure;
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { forecastCost };
