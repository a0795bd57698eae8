// docs/dialing.md at scale: 1,000 campaigns of 100 users over 1,000,000 leads in 24 zones, all
// dialing at once through the simulated dialer. Measures the scheduler's pass time, attempts per
// second, and each campaign's share of the dials against its fair share (equal limits: equal shares).
'use strict';
require('reflect-metadata');
const Database = require('better-sqlite3');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { NestFactory } = require('@nestjs/core');
const { CommandBus } = require('@nestjs/cqrs');
const { AppModule } = require('../dist/app.module');
const { loadServiceConfig: loadConfig } = require('../dist/service-config');
const { RegisterUser } = require('../dist/users/commands/register-user');
const { CreateAssistant } = require('../dist/assistants/commands/create-assistant');
const { CreateCampaign } = require('../dist/campaigns/commands/create-campaign');
const { ChangeCampaignStatus } = require('../dist/campaigns/commands/change-campaign-status');
const { BulkWriter, phone, assistantBody } = require('./load');
const { startService, rssMb, cpuSeconds, mainThreadCpuSeconds } = require('./service');

const ZONES = [
  'Pacific/Honolulu',
  'America/Anchorage',
  'America/Los_Angeles',
  'America/Denver',
  'America/Phoenix',
  'America/Chicago',
  'America/New_York',
  'America/Sao_Paulo',
  'Atlantic/Azores',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Athens',
  'Europe/Moscow',
  'Asia/Dubai',
  'Asia/Karachi',
  'Asia/Kolkata',
  'Asia/Dhaka',
  'Asia/Bangkok',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Pacific/Noumea',
  'Pacific/Auckland',
];
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Users, their assistants and campaigns, made through the command bus as the API makes them. */
async function makeCampaigns(dataDir, users, campaignsPerUser) {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', DEFAULT_QUIET_HOURS: 'none' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, background: false }), { logger: ['error'] });
  const bus = app.get(CommandBus);
  const made = [];
  try {
    for (let u = 0; u < users; u++) {
      const user = await bus.execute(new RegisterUser(`user${u}@example.com`));
      const authenticated = { id: user.id, organisationId: user.id, role: 'owner', email: user.email, toolLimit: 10, webhookSecret: user.webhook_secret };
      const assistantId = await bus.execute(new CreateAssistant(authenticated, { fields: assistantBody(`A${u}`), errors: {} }));
      for (let c = 0; c < campaignsPerUser; c++) {
        const settings = {
          name: `C${u}-${c}`,
          assistant_id: assistantId,
          // One call at a time: a campaign's count moves one call at a time, so its share is not
          // a matter of whole batches at the window's edges.
          max_concurrent_calls: 1,
          max_retries: 0,
          calling_hours: { start: '00:00', end: '24:00' },
          calling_days: EVERY_DAY,
          window_timezone: 'lead',
        };
        const id = await bus.execute(new CreateCampaign(authenticated, { fields: settings, errors: {} }));
        made.push({ user: authenticated, id });
      }
    }
  } finally {
    await app.close();
  }
  return made;
}

/** The n-th bulk lead: a New York number given one of the 24 zones as its timezone, in turn. */
function appendZonedLead(store, n, userId, campaignId, at) {
  const id = store.nextId('lead');
  const zone = ZONES[n % ZONES.length];
  const data = {
    lead_id: id,
    user_id: userId,
    campaign_id: campaignId,
    phone_number: phone(n, 212),
    timezone: zone,
    zones: [zone],
    variables: {},
    secondary_contacts: [],
  };
  return store.append(`lead-${id}`, [{ type: 'LeadCreated', schemaVersion: 1, data }], at);
}

/** `perCampaign` leads in each campaign, each in one of the 24 zones (given as its timezone). */
async function loadLeads(dataDir, campaigns, perCampaign) {
  const store = await BulkWriter.open(dataDir);
  const at = new Date().toISOString();
  let n = 0;
  for (const { user, id: campaignId } of campaigns) {
    for (let i = 0; i < perCampaign; i++, n++) {
      await appendZonedLead(store, n, user.id, campaignId, at);
    }
  }
  await store.close();
}

async function startAll(dataDir, campaigns) {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', DEFAULT_QUIET_HOURS: 'none' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, background: false }), { logger: ['error'] });
  try {
    const bus = app.get(CommandBus);
    for (const { user, id } of campaigns) await bus.execute(new ChangeCampaignStatus(user, id, 'start'));
  } finally {
    await app.close();
  }
}

/** The event store's last position: dials are counted between two of them. */
function headPosition(dataDir) {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    return db.prepare('SELECT coalesce(max(position), 0) FROM events').pluck().get();
  } finally {
    db.close();
  }
}

/** Calls placed per campaign between two positions of the event store (a range of its key: read at once). */
function dialsPerCampaign(dataDir, from, to) {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT json_extract(data, '$.campaign_id') AS campaign, COUNT(*) AS n FROM events WHERE position > ? AND position <= ? AND type = 'LeadCallStarted' GROUP BY campaign`,
      )
      .all(from, to);
    return new Map(rows.map((r) => [r.campaign, r.n]));
  } finally {
    db.close();
  }
}

const sample = (text, name) => Number((text.split('\n').find((l) => l.startsWith(`${name} `)) ?? ' NaN').split(' ')[1]);

async function manyCampaigns({ users = 100, campaignsPerUser = 10, perCampaign = 1000, seconds = 60, log = console.log, under = tmpdir() } = {}) {
  const dataDir = mkdtempSync(join(under, 'bench-campaigns-'));
  try {
    return await dialMany(dataDir, { users, campaignsPerUser, perCampaign, seconds, log });
  } finally {
    // A full-size store is a few gigabytes: a run leaves none behind.
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function dialMany(dataDir, { users, campaignsPerUser, perCampaign, seconds, log }) {
  log(`making ${users} users and ${users * campaignsPerUser} campaigns`);
  const campaigns = await makeCampaigns(dataDir, users, campaignsPerUser);
  log(`loading ${campaigns.length * perCampaign} leads in ${ZONES.length} zones`);
  await loadLeads(dataDir, campaigns, perCampaign);
  await startAll(dataDir, campaigns);
  const env = { DATA_DIR: dataDir, SIMULATED_CALL_STEP_SECONDS: '0', SIMULATED_DIALER_ODDS: 'human:1,no-answer:1', DIAL_INTERVAL_MS: '50' };
  const service = await startService(env);
  try {
    const metrics = async () => (await fetch(`${service.url}/metrics`)).text();
    // The window opens once two passes have ended: the first claims one lead in every campaign
    // from cold stores (seconds), so where the window opened within it decided which campaigns'
    // first calls counted, and the second begins with the campaigns the first served last.
    const deadline = Date.now() + 600_000;
    while (sample(await metrics(), 'scheduler_pass_duration_seconds_count') < 2) {
      if (Date.now() > deadline) throw new Error('the scheduler did not end two passes in 10 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = await metrics();
    // Only the calls placed within the window count.
    const from = headPosition(dataDir);
    const cpuBefore = cpuSeconds(service.pid);
    const mainBefore = mainThreadCpuSeconds(service.pid);
    const started = Date.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const after = await metrics();
    const to = headPosition(dataDir);
    const elapsed = (Date.now() - started) / 1000;
    const passes = sample(after, 'scheduler_pass_duration_seconds_count') - sample(before, 'scheduler_pass_duration_seconds_count');
    const passSeconds = sample(after, 'scheduler_pass_duration_seconds_sum') - sample(before, 'scheduler_pass_duration_seconds_sum');
    const cpu = cpuSeconds(service.pid) - cpuBefore;
    const main = mainThreadCpuSeconds(service.pid) - mainBefore;
    const rss = Math.round(rssMb(service.pid));
    await service.stop();
    const dials = dialsPerCampaign(dataDir, from, to);
    const counts = campaigns.map((c) => dials.get(c.id) ?? 0);
    const total = counts.reduce((a, b) => a + b, 0);
    const fair = total / campaigns.length;
    const within = counts.filter((n) => Math.abs(n - fair) <= 0.1 * fair).length;
    return {
      name: `${campaigns.length} campaigns of ${users} users, ${campaigns.length * perCampaign} leads in ${ZONES.length} zones (simulated, window in each lead's time)`,
      attempts: total,
      attempts_per_second: Math.round(total / elapsed),
      cpu_ms_per_attempt: +((cpu * 1000) / Math.max(1, total)).toFixed(3),
      // How busy the service's main thread was: below 1, the attempts wait on something else than its CPU.
      main_thread_busy: +(main / elapsed).toFixed(2),
      scheduler_pass_ms: +((passSeconds * 1000) / Math.max(1, passes)).toFixed(1),
      passes,
      // A campaign's count is whole calls, and where its calls fall against the window's edges moves
      // it by one: the window is long enough for one call to weigh a few percent of a share.
      calls_per_campaign: +fair.toFixed(1),
      share_min: +(Math.min(...counts) / fair).toFixed(2),
      share_max: +(Math.max(...counts) / fair).toFixed(2),
      campaigns_within_10_percent: `${within} of ${campaigns.length}`,
      rss_mb: rss,
    };
  } finally {
    await service.stop();
  }
}

module.exports = { manyCampaigns, appendZonedLead, ZONES };

if (require.main === module) {
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  manyCampaigns({
    users: Math.max(1, Math.round(100 * scale)),
    perCampaign: Math.max(10, Math.round(1000 * scale)),
    seconds: 6 * Number(process.env.BENCH_SECONDS ?? 10),
  }).then(
    (result) => console.log(JSON.stringify(result)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
