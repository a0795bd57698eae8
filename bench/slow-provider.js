// docs/dialing.md: dials through a provider that takes 500 ms to accept each one, as real voice
// runtimes do (0.3–1 s). Two users' campaigns, each allowed 20 calls at once: the figure is the
// most dial requests open at once (goal: at least 80 % of the 40 the caps allow, reached within
// 1.5 s of the start) and the attempts per second while each call lasts about a second more.
'use strict';
const { createServer } = require('node:http');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { sign, hasValidSignature } = require('../dist/shared/signature');
const { api, startService, cli } = require('./service');
const { phone, assistantBody } = require('./load');

const ACCEPT_MS = 500;
const CAP = 20;
const SECRET = 'bench-slow-provider-secret';
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** A provider on loopback: holds each signed dial request ACCEPT_MS, then rings, answers and ends the call through its callback. */
function slowProvider() {
  const state = { open: 0, most: 0, reached80At: null, accepted: 0 };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (!hasValidSignature(raw, SECRET, req.headers['x-signature'])) return void res.writeHead(401).end();
      state.open++;
      state.most = Math.max(state.most, state.open);
      if (state.reached80At === null && state.open >= 0.8 * 2 * CAP) state.reached80At = Date.now();
      setTimeout(() => {
        state.open--;
        state.accepted++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":true}');
        void report(JSON.parse(raw).callback_url);
      }, ACCEPT_MS);
    });
  });
  const report = async (url) => {
    const steps = [{ status: 'ringing' }, { status: 'in-progress', answered_by: 'human' }, { status: 'completed', answered_by: 'human', duration: 1 }];
    for (const [i, step] of steps.entries()) {
      await new Promise((r) => setTimeout(r, i === 2 ? 1000 : 50));
      const body = JSON.stringify(step);
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) }, body }).catch(() => undefined);
    }
  };
  return {
    state,
    start: () => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/dial`))),
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function slowProviderDialing({ leadsPerCampaign, seconds, log }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-slow-'));
  const provider = slowProvider();
  const env = { DATA_DIR: dataDir, DIALER: 'http', DIALER_URL: await provider.start(), TELEPHONY_SECRET: SECRET, DIAL_INTERVAL_MS: '50' };
  const service = await startService(env);
  try {
    const campaigns = [];
    for (const u of [0, 1]) {
      const user = await cli(env, 'users:create', '--email', `slow${u}@example.com`);
      const call = api(service, user.token);
      const assistant = (await call('POST', '/api/user/assistant', assistantBody(`Slow${u}`))).data.id;
      const campaign = (
        await call('POST', '/api/user/campaigns', {
          name: `Slow ${u}`,
          assistant_id: assistant,
          max_concurrent_calls: CAP,
          max_retries: 0,
          calling_hours: { start: '00:00', end: '24:00' },
          calling_days: EVERY_DAY,
        })
      ).data.id;
      for (let i = 0; i < leadsPerCampaign; i++) await call('POST', '/api/user/lead', { campaign_id: campaign, phone_number: phone(u * 100_000 + i, 212 + u) });
      campaigns.push({ call, campaign });
    }
    log(`slow provider: ${campaigns.length} campaigns of ${leadsPerCampaign} leads, starting`);
    const started = Date.now();
    await Promise.all(campaigns.map(({ call, campaign }) => call('POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'start' })));
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const accepted = provider.state.accepted;
    const elapsed = (Date.now() - started) / 1000;
    const reachedMs = provider.state.reached80At === null ? null : provider.state.reached80At - started;
    return {
      name: `dialing through a provider that accepts each dial after ${ACCEPT_MS} ms (2 users, max_concurrent_calls ${CAP} each)`,
      attempts_per_second: Math.round(accepted / elapsed),
      most_open_dial_requests: provider.state.most,
      caps_allow: 2 * CAP,
      ms_to_80_percent_open: reachedMs,
      goal_met: reachedMs !== null && reachedMs <= 1500,
    };
  } finally {
    await service.stop();
    await provider.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { slowProviderDialing };
