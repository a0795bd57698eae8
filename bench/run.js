// npm run bench: the built service on the embedded default, measured with autocannon beside a bare
// route of the same app in the same run. Prints a table and writes bench/results.json.
// BENCH_SCALE (default 1) scales every data size; BENCH_SECONDS (default 10) is each load's length;
// BENCH_ROUNDS (default 3) is how many times each load, rebuild and dialing run is measured (see rounds.js).
const autocannon = require('autocannon');
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { api, startService, startAdapterApp, rssMb, cpuSeconds, mainThreadCpuSeconds, cli } = require('./service');
const { loadLeads, loadCalls, phone, assistantBody, dialingSettings } = require('./load');
const { inRounds, median, rateOfRounds } = require('./rounds');

const { manyCampaigns } = require('./many-campaigns');
const { leadImport } = require('./lead-import');
const { dncImport } = require('./dnc-import');
const { slowProviderDialing } = require('./slow-provider');
const { relayLatency } = require('./relay');
const { floorsOf } = require('./floors');
const { reportAndExport } = require('./report-export');
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Math.round(Number(process.env.BENCH_ROUNDS ?? 3)));
const n = (count) => Math.max(1, Math.round(count * SCALE));
const results = { machine: { cpus: require('node:os').cpus().length, node: process.version }, scale: SCALE, seconds: SECONDS, rounds: ROUNDS, figures: [] };
const log = (...args) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args);

/**
 * One load of `SECONDS` on a process (`pid`). Beside the rates, the CPU each request cost the
 * process (all its threads, and its main thread alone, which one core bounds) and this one,
 * which runs autocannon: both share this machine's cores.
 */
async function load(name, pid, options) {
  const serviceBefore = cpuSeconds(pid);
  const mainBefore = mainThreadCpuSeconds(pid);
  const ownBefore = process.cpuUsage();
  const result = await autocannon({ duration: SECONDS, ...options });
  const own = process.cpuUsage(ownBefore);
  const requests = Math.max(1, result.requests.total);
  const figure = {
    name,
    connections: options.connections,
    requests_per_second: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
    service_cpu_us_per_request: Math.round(((cpuSeconds(pid) - serviceBefore) * 1e6) / requests),
    service_main_thread_cpu_us_per_request: Math.round(((mainThreadCpuSeconds(pid) - mainBefore) * 1e6) / requests),
    load_generator_cpu_us_per_request: Math.round((own.user + own.system) / requests),
  };
  log(name, JSON.stringify(figure));
  return figure;
}

async function until(check, what, timeoutMs = 3_600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A pooled connection the service closed while idle fails once; the next poll opens a new one.
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The CPU share of an idle service: V8's profiler alone keeps one at about 10 % (measured here). */
const IDLE_SHARE = process.env.BENCH_CPU_PROFILE_DIR ? 0.2 : 0.05;

/**
 * Waits until the service's CPU stays under IDLE_SHARE for a second: after a start on loaded data the
 * reactors still pass over the imported events in the background, which would be measured too.
 */
async function idle(pid, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const before = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuSeconds(pid) - before < IDLE_SHARE) return;
    if (Date.now() > deadline) throw new Error('the service did not go idle');
  }
}

/**
 * Lets the kernel write out what earlier phases left dirty (loading and rebuilding write
 * gigabytes, whose writeback is not the measured work).
 */
function writtenOut() {
  const dirtyMb = Number(/Dirty:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))[1]) / 1024;
  if (dirtyMb > 64) log(`writing out ${Math.round(dirtyMb)} MB of dirty pages first`);
  execFileSync('sync');
}

/** Before an idle figure or a dialing run: written out, then the service's CPU settles (after a start on imported data the reactors pass over it). */
async function settled(pid) {
  writtenOut();
  await idle(pid);
}

/** The baseline of this run: the same app and adapter answering a constant. */
async function baseline(service, connections) {
  return load('baseline GET /health/live', service.pid, { url: `${service.url}/health/live`, connections });
}

/**
 * The baseline route on a service of its own with an empty store, for a part whose own service is
 * busy from its start (many campaigns dial as soon as the service is up).
 */
async function idleBaseline() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  const service = await startService({ DATA_DIR: dataDir });
  try {
    return await baseline(service, 50);
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The HTTP adapter is chosen by this: the same NestJS app (a constant, and a lead-shaped JSON body
 * parsed and sent back) on Fastify and on Express, each load beside the constant on Fastify.
 */
async function adapters() {
  const apps = { Fastify: await startAdapterApp('fastify'), Express: await startAdapterApp('express') };
  try {
    const body = JSON.stringify({ campaign_id: 1, phone_number: '+12125550100', variables: { customer_name: 'Ann' } });
    const constant = (name) => () => load(`${name} adapter: GET /constant`, apps[name].pid, { url: `${apps[name].url}/constant`, connections: 50 });
    const echo = (name) => () =>
      load(`${name} adapter: POST /echo (JSON body sent back)`, apps[name].pid, {
        url: `${apps[name].url}/echo`,
        connections: 50,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const { baseline: base, figures } = await inRounds(ROUNDS, constant('Fastify'), [constant('Express'), echo('Fastify'), echo('Express')]);
    results.figures.push(base, ...figures);
  } finally {
    await Promise.all(Object.values(apps).map((app) => app.stop()));
  }
}

async function httpAndReads() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const env = { DATA_DIR: dataDir };
  let service = await startService(env);
  try {
    const user = await cli(env, 'users:create', '--email', 'bench@example.com');
    const call = api(service, user.token);
    const assistant = (await call('POST', '/api/user/assistant', assistantBody('Bench'))).data.id;
    const writes = (await call('POST', '/api/user/campaigns', { name: 'Writes', assistant_id: assistant })).data.id;
    const reads = (await call('POST', '/api/user/campaigns', { name: 'Reads', assistant_id: assistant })).data.id;
    const headers = { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', accept: 'application/json' };

    for (const connections of [10, 50]) {
      let counter = connections * 100_000;
      const { baseline: base, figures } = await inRounds(ROUNDS, () => baseline(service, connections), [
        () =>
          load('POST /api/user/lead', service.pid, {
            url: `${service.url}/api/user/lead`,
            connections,
            method: 'POST',
            headers,
            // Each request gets a number of its own (autocannon reads setupRequest only inside `requests`).
            requests: [
              {
                setupRequest: (req) => ({
                  ...req,
                  body: JSON.stringify({ campaign_id: writes, phone_number: phone(counter++, 212), variables: { customer_name: 'Ann' } }),
                }),
              },
            ],
          }),
      ]);
      results.figures.push(base, ...figures);
    }

    const leadCount = n(100_000);
    const callCount = n(1_000_000);
    log(`loading ${leadCount} leads and ${callCount} calls through the event store, service stopped`);
    await service.stop();
    await loadLeads(dataDir, { userId: user.id, campaignId: reads, count: leadCount });
    await loadCalls(dataDir, { userId: user.id, assistantId: assistant, campaignId: writes, count: callCount });
    // The service projects what it has not seen before it listens.
    const catchUpStarted = Date.now();
    service = await startService(env);
    const read = api(service, user.token);
    await until(async () => (await read('GET', '/api/user/calls?per_page=1')).total >= callCount, 'calls projected');
    const catchUp = (Date.now() - catchUpStarted) / 1000;
    results.figures.push({
      name: 'start-up catch-up projection of the loaded events',
      events: leadCount + 2 * callCount,
      seconds: catchUp,
      events_per_second: Math.round((leadCount + 2 * callCount) / catchUp),
    });
    log('projected in', catchUp, 's');
    await settled(service.pid);

    const pages = [
      [`GET /api/user/leads?campaign_id&per_page=100 (${leadCount} leads)`, `/api/user/leads?campaign_id=${reads}&per_page=100`],
      [
        `GET /api/user/leads?campaign_id&status&per_page=100&page=500 (${leadCount} leads)`,
        `/api/user/leads?campaign_id=${reads}&status=created&per_page=100&page=500`,
      ],
      [`GET /api/user/calls?campaign_id&status (${callCount} calls)`, `/api/user/calls?campaign_id=${writes}&status=completed`],
      [`GET /api/user/calls?status&type (${callCount} calls)`, `/api/user/calls?status=no-answer&type=outbound`],
    ];
    for (const [, path] of pages) if (!(await fetch(`${service.url}${path}`, { headers })).ok) throw new Error(`${path} does not answer 200`);
    const { baseline: base, figures } = await inRounds(
      ROUNDS,
      () => baseline(service, 50),
      pages.map(
        ([name, path]) =>
          () =>
            load(name, service.pid, { url: `${service.url}${path}`, connections: 50, headers }),
      ),
    );
    results.figures.push(base, ...figures);
    results.figures.push(...(await reportAndExport({ service, token: user.token, headers, campaignId: writes, calls: callCount, load, log })));
    await service.stop();
    service = null;

    const rebuilds = [];
    for (let round = 0; round < ROUNDS; round++) {
      writtenOut();
      log('rebuilding every read model');
      rebuilds.push(await cli(env, 'projections:rebuild'));
      log('rebuild', JSON.stringify(rebuilds[round]));
    }
    const { rate, range } = rateOfRounds(rebuilds.map((r) => r.events_per_second));
    results.figures.push({
      name: 'projections:rebuild',
      events: rebuilds[0].events,
      seconds: median(rebuilds.map((r) => r.seconds)),
      events_per_second: rate,
      events_per_second_range: range,
      rounds: rebuilds.length,
    });
  } finally {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The scheduler's own CPU per decision: its passes run alone on the data directory (`scheduler-passes.js`). */
function schedulerPasses(env, userId, campaign, passes) {
  const script = join(__dirname, 'scheduler-passes.js');
  const stdout = execFileSync(process.execPath, [script, String(userId), String(campaign), String(passes)], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(stdout);
}

/** Dials one campaign for a while; answers attempts per second, CPU per attempt and RSS while dialing. */
/** A small campaign (BENCH_SCALE below 1) may be dialed to the end within a round. */
async function dialedToTheEnd(call, campaign) {
  return (await call('GET', `/api/user/campaigns/${campaign}`)).status === 'completed';
}

async function dial(service, call, campaign, seconds) {
  const countCalls = async () => (await call('GET', `/api/user/calls?campaign_id=${campaign}&per_page=1`)).total;
  const before = await countCalls();
  const cpuBefore = cpuSeconds(service.pid);
  let maxRss = 0;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, rssMb(service.pid))), 200);
  const started = Date.now();
  await call('POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'start' });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  await call('POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'stop' }).catch(async (error) => {
    if (!(await dialedToTheEnd(call, campaign))) throw error;
  });
  const elapsed = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const cpu = cpuSeconds(service.pid) - cpuBefore;
  await new Promise((r) => setTimeout(r, 1000));
  const attempts = (await countCalls()) - before;
  return {
    attempts,
    attempts_per_second: Math.round(attempts / elapsed),
    cpu_ms_per_attempt: +((cpu * 1000) / Math.max(1, attempts)).toFixed(3),
    rss_dialing_mb: Math.round(maxRss),
  };
}

async function dialingAndMemory() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-dial-'));
  const env = { DATA_DIR: dataDir, SIMULATED_CALL_STEP_SECONDS: '0', DIAL_INTERVAL_MS: '50', SIMULATED_DIALER_ODDS: 'human:1,no-answer:1,busy:1' };
  let service = await startService(env);
  try {
    const user = await cli(env, 'users:create', '--email', 'dial@example.com');
    let call = api(service, user.token);
    const assistant = (await call('POST', '/api/user/assistant', assistantBody('Dialer'))).data.id;
    const settings = dialingSettings(assistant);
    const small = (await call('POST', '/api/user/campaigns', { name: 'Small', ...settings })).data.id;
    const big = (await call('POST', '/api/user/campaigns', { name: 'Big', ...settings })).data.id;
    const rest = (await call('POST', '/api/user/campaigns', { name: 'Stored', ...settings })).data.id;
    await service.stop();

    const smallCount = n(10_000);
    log(`loading ${smallCount} leads`);
    await loadLeads(dataDir, { userId: user.id, campaignId: small, count: smallCount });
    service = await startService(env);
    call = api(service, user.token);
    await until(async () => (await call('GET', `/api/user/campaigns/${small}`)).stats.leads.created >= smallCount, 'leads projected');
    await settled(service.pid);
    const idleSmall = Math.round(rssMb(service.pid));
    const dialSmall = await dial(service, call, small, SECONDS);
    results.figures.push({ name: `memory with ${smallCount} leads stored`, rss_idle_mb: idleSmall, rss_dialing_mb: dialSmall.rss_dialing_mb });
    await service.stop();

    const bigCount = n(100_000);
    const restCount = n(1_000_000) - smallCount - bigCount;
    log(`loading ${bigCount} + ${restCount} leads`);
    await loadLeads(dataDir, { userId: user.id, campaignId: big, count: bigCount, prefix: 4 });
    await loadLeads(dataDir, { userId: user.id, campaignId: rest, count: restCount, prefix: 5 });
    service = await startService(env);
    call = api(service, user.token);
    await until(async () => (await call('GET', `/api/user/campaigns/${rest}`)).stats.leads.created >= restCount, 'leads projected');
    await settled(service.pid);
    const idleBig = Math.round(rssMb(service.pid));
    // Each round starts the campaign, dials, stops it and lets the calls in flight end.
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) {
        await settled(service.pid);
        if (await dialedToTheEnd(call, big)) break;
      }
      rounds.push(await dial(service, call, big, SECONDS * 2));
    }
    const { rate, range } = rateOfRounds(rounds.map((r) => r.attempts_per_second));
    results.figures.push({
      name: `dialing a campaign of ${bigCount} leads (simulated, answering at once, max_concurrent_calls 100)`,
      attempts: rounds.reduce((sum, r) => sum + r.attempts, 0),
      attempts_per_second: rate,
      attempts_per_second_range: range,
      cpu_ms_per_attempt: median(rounds.map((r) => r.cpu_ms_per_attempt)),
      rounds: rounds.length,
    });
    // Once more from a store already projected: what a start that projects nothing holds.
    await service.stop();
    service = await startService(env);
    await settled(service.pid);
    const idleRestarted = Math.round(rssMb(service.pid));
    results.figures.push({
      name: `memory with ${smallCount + bigCount + restCount} leads stored`,
      rss_idle_mb: idleBig,
      rss_dialing_mb: Math.max(...rounds.map((r) => r.rss_dialing_mb)),
      rss_growth_idle_mb: idleBig - idleSmall,
      rss_idle_after_restart_mb: idleRestarted,
      rss_growth_after_restart_mb: idleRestarted - idleSmall,
    });
    // The scheduler alone, the service stopped (its own scheduler would dial the same campaign).
    await service.stop();
    service = null;
    writtenOut();
    const passes = schedulerPasses(env, user.id, rest, Math.max(3, n(200)));
    results.figures.push({
      name: `scheduler passes alone, a campaign of ${restCount} leads (${smallCount + bigCount + restCount} stored, max_concurrent_calls 100)`,
      ...passes,
    });
    log('scheduler passes', JSON.stringify(passes));
  } finally {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const { erasureCost } = require('./erasure');
const { forecastCost } = require('./forecast');
const { partsChosen } = require('./parts');

async function main() {
  const chosen = partsChosen(process.env.BENCH_ONLY);
  const part = (name) => chosen.has(name);
  if (part('adapters')) await adapters();
  if (part('http')) await httpAndReads();
  if (part('dialing')) await dialingAndMemory();
  if (part('slow-provider')) {
    const figure = await slowProviderDialing({ leadsPerCampaign: Math.max(100, n(400)), seconds: SECONDS, log });
    log('slow provider', JSON.stringify(figure));
    results.figures.push(figure);
  }
  if (part('campaigns')) {
    // Beside the baseline measured just before and just after it: the machine's speed moves threefold.
    const baselines = [await idleBaseline()];
    const figure = await manyCampaigns({ users: n(100), perCampaign: Math.max(10, n(1000)), seconds: 6 * SECONDS, log });
    baselines.push(await idleBaseline());
    figure.baseline_requests_per_second = median(baselines.map((b) => b.requests_per_second));
    figure.ratio_to_baseline = +(figure.attempts_per_second / figure.baseline_requests_per_second).toFixed(4);
    log('many campaigns', JSON.stringify(figure));
    results.figures.push(...baselines, figure);
  }
  if (part('import')) results.figures.push(await leadImport({ rows: n(1_000_000), log }));
  if (part('relay')) {
    const instances = Number(process.env.BENCH_RELAY_INSTANCES ?? 1);
    results.figures.push(
      ...(await relayLatency({ sizes: [Math.max(10, n(50)), Math.max(20, n(200))], baseline: (service) => baseline(service, 50), log, instances })),
    );
  }
  if (part('dnc')) results.figures.push(...(await dncImport({ sizes: [n(10_000), n(1_000_000), n(10_000_000)], log })));
  if (part('erasure')) results.figures.push(await erasureCost({ calls: Math.max(100, n(1000)), log }));
  if (part('forecast')) results.figures.push(await forecastCost({ leads: Math.max(1000, n(100_000)), log }));
  results.floors = floorsOf(results.figures);
  writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const shown = (figure) => Object.fromEntries(Object.entries(figure).map(([key, value]) => [key, Array.isArray(value) ? value.join('–') : value]));
  console.table(results.figures.map(({ errors: _e, ...f }) => shown(f)));
  console.table(results.floors);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
