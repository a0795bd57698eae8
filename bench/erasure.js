// docs/privacy.md: the cost of erasing one person who was called `calls` times: the calls made
// through the simulated dialer as the service makes them (their values sealed under the person's
// key), then the time from the request to `done` (holdings found, key destroyed, every read model
// scrubbed, the read store's log cut).
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { assistantBody, dialingSettings } = require('./load');
const { startService, cli, api } = require('./service');

const SUBJECT = '+12015550142';

async function until(check, timeoutMs, what) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function erasureCost({ calls, log }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-erasure-'));
  const env = { DATA_DIR: dataDir, DIAL_INTERVAL_MS: '20', SIMULATED_CALL_STEP_SECONDS: '0', SIMULATED_DIALER_ODDS: 'human:1', DEFAULT_QUIET_HOURS: 'none' };
  const service = await startService(env);
  try {
    const user = await cli(env, 'users:create', '--email', 'erasure@example.com');
    const call = api(service, user.token);
    const assistant = (await call('POST', '/api/user/assistant', assistantBody('Erasure'))).data.id;
    const campaign = (await call('POST', '/api/user/campaigns', { name: 'Erasure', ...dialingSettings(assistant), max_retries: 0 })).data.id;
    for (let i = 0; i < calls; i++) {
      await call('POST', '/api/user/lead', {
        campaign_id: campaign,
        phone_number: SUBJECT,
        allow_dupplicate: true,
        variables: { first_name: 'Ada', note: `call ${i}` },
      });
    }
    await call('POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'start' });
    await until(async () => (await call('GET', `/api/user/campaigns/${campaign}`)).status === 'completed', 600_000, 'the campaign to complete');
    const made = (await call('GET', `/api/user/calls?campaign_id=${campaign}&per_page=1`)).total;
    const started = process.hrtime.bigint();
    const { data } = await call('POST', '/api/user/privacy/erasures', { phone_number: SUBJECT });
    await until(async () => (await call('GET', `/api/user/privacy/erasures/${data.id}`)).status === 'done', 120_000, 'the erasure');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const figure = {
      name: `erasure of a person called ${made} times (leads, calls with transcripts, do-not-call)`,
      calls: made,
      seconds: Number(seconds.toFixed(3)),
      goal: 'under 1 s',
      verdict: seconds < 1 ? 'met' : 'missed',
    };
    log('erasure', JSON.stringify(figure));
    return figure;
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { erasureCost };
