// docs/real-calls.md (issue: voice latency is what callers feel): 200 conversations at once over the
// Twilio relay, each answered by a fake model that streams CHUNKS deltas EVERY_MS apart. Each delta
// carries the moment the model sent it; the figure is the time from there to its text frame reaching
// the relay client (both ends live in this process, on one clock, so the figure also holds the two
// loopback hops): p50, p99, the worst, and each conversation's first token. Goals: p99 ≤ 10 ms and
// no first token later than 50 ms after the model's. The conversations are set up first, then each
// caller speaks at a moment of its own within the length of one answer (CHUNKS × EVERY_MS): past the
// first answer all of them stream at once, while their questions arrive as callers' do, spread out,
// not 200 in the same 50 ms (a burst no set of phone calls makes).
'use strict';
const { createServer } = require('node:http');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { WebSocket: RelayClient } = require('ws');
const { getExpectedTwilioSignature } = require('twilio/lib/webhooks/webhooks');
const { api, startService, cli, mainThreadCpuSeconds } = require('./service');
const { phone, assistantBody } = require('./load');

const SID = 'AC0000000000000000000000000000bench';
const AUTH = 'bench-twilio-auth-token';
const CHUNKS = 20;
const EVERY_MS = 50;
const PER_CAMPAIGN = 100;
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Twilio's Calls.json, answering each dial with a call sid and keeping the call id its TwiML carries. */
function fakeTwilio() {
  const made = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      const callId = /name="call_id" value="(\d+)"/.exec(form.get('Twiml') ?? '')?.[1];
      const sid = `CA${String(made.length + 1).padStart(32, '0')}`;
      made.push({ sid, callId });
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid, status: 'queued' }));
    });
  });
  return { made, server };
}

/** A chat completions API streaming CHUNKS deltas EVERY_MS apart, each delta the time it left. */
function fakeModel() {
  return createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < CHUNKS; i++) {
        await new Promise((r) => setTimeout(r, EVERY_MS));
        const chunk = {
          id: 'c',
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { content: `${performance.now().toFixed(3)} ` }, finish_reason: null }],
        };
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      }
      res.end('data: [DONE]\n\n');
    });
  });
}

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));

/**
 * One conversation set up on `target` (an instance's relay, signed as Twilio signs the public URL
 * the TwiML named); `speak()` sends its prompt and answers the answer's frames, timed, once its turn ends.
 */
async function conversation(target, { sid, callId }) {
  const ws = new RelayClient(target.url, { headers: { 'x-twilio-signature': getExpectedTwilioSignature(AUTH, target.signedUrl, {}) } });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ type: 'setup', callSid: sid, customParameters: { call_id: callId } }));
  const speak = () =>
    new Promise((resolve, reject) => {
      const took = [];
      ws.on('error', reject);
      ws.send(JSON.stringify({ type: 'prompt', voicePrompt: 'Tell me about the plans', last: true }));
      ws.on('message', (data) => {
        const now = performance.now();
        const frame = JSON.parse(String(data));
        if (frame.type === 'text' && frame.token) took.push(now - Number(frame.token));
        if (frame.type === 'text' && frame.last) {
          ws.close();
          resolve(took);
        }
      });
    });
  return { speak };
}

/**
 * One round: `made.length` conversations set up, spread over the instances' relays as a load
 * balancer in front of them would, then each caller speaking in turn within one answer's length.
 */
async function round(targets, made) {
  const open = await Promise.all(made.map((m, i) => conversation(targets[i % targets.length], m)));
  await new Promise((r) => setTimeout(r, 500));
  const busyOf = () => targets.map((target) => mainThreadCpuSeconds(target.pid));
  const [started, serviceBefore, ownBefore] = [Date.now(), busyOf(), process.cpuUsage()];
  const timings = await Promise.all(open.map(({ speak }, i) => new Promise((r) => setTimeout(r, (i * EVERY_MS * CHUNKS) / open.length)).then(speak)));
  const seconds = (Date.now() - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  // How busy each side was: a load generator near one core would delay the arrivals it times.
  const each = busyOf().map((cpu, i) => Number(((cpu - serviceBefore[i]) / seconds).toFixed(2)));
  const busy = {
    service_main_thread_busy: each.length === 1 ? each[0] : each,
    bench_busy: Number(((own.user + own.system) / 1e6 / seconds).toFixed(2)),
  };
  const all = timings.flat().sort((a, b) => a - b);
  const at = (q) => Number(all[Math.min(all.length - 1, Math.floor(q * all.length))].toFixed(2));
  const worstFirst = Number(Math.max(...timings.map((t) => t[0])).toFixed(2));
  return {
    name: `Twilio relay: ${made.length} conversations at once${targets.length > 1 ? ` on ${targets.length} instances` : ''}, the model streaming ${CHUNKS} deltas ${EVERY_MS} ms apart, questions spread over one answer's length (ms from a delta leaving the model to its frame reaching the client)`,
    frames: all.length,
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    max_ms: Number(all[all.length - 1].toFixed(2)),
    worst_first_token_ms: worstFirst,
    goal_met: at(0.99) <= 10 && worstFirst <= 50,
    ...busy,
  };
}

/**
 * Rounds of `sizes` conversations on `instances` services sharing one data directory and one
 * `PUBLIC_URL` (any instance may hold a conversation), then the first one's baseline route
 * (`baseline(service)`) in the same run, which the figures are read beside.
 */
async function relayLatency({ sizes, baseline, log, instances = 1 }) {
  const conversations = sizes.reduce((a, b) => a + b, 0);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-relay-'));
  const twilio = fakeTwilio();
  const model = fakeModel();
  const env = {
    DATA_DIR: dataDir,
    DIALER: 'twilio',
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: AUTH,
    TWILIO_API_BASE_URL: await listen(twilio.server),
    LLM_API_KEY: 'bench',
    LLM_BASE_URL: `${await listen(model)}/v1`,
    // Behind a load balancer every instance is told the one address Twilio is given.
    ...(instances > 1 ? { PUBLIC_URL: 'https://relay.bench.example' } : {}),
  };
  const services = [];
  for (let i = 0; i < instances; i++) services.push(await startService(env));
  const service = services[0];
  try {
    const user = await cli(env, 'users:create', '--email', 'relay@example.com');
    const call = api(service, user.token);
    const number = (await call('POST', '/api/user/phone-numbers', { phone_number: '+12125550100' })).data.id;
    const assistant = (await call('POST', '/api/user/assistant', { ...assistantBody('Relay'), phone_number_id: number, end_call_on_voicemail: false })).data.id;
    for (let c = 0; c * PER_CAMPAIGN < conversations; c++) {
      const settings = {
        name: `Relay ${c}`,
        assistant_id: assistant,
        max_concurrent_calls: PER_CAMPAIGN,
        max_retries: 0,
        calling_hours: { start: '00:00', end: '24:00' },
        calling_days: EVERY_DAY,
      };
      const campaign = (await call('POST', '/api/user/campaigns', settings)).data.id;
      for (let i = c * PER_CAMPAIGN; i < Math.min(conversations, (c + 1) * PER_CAMPAIGN); i++)
        await call('POST', '/api/user/lead', { campaign_id: campaign, phone_number: phone(i, 646) });
      await call('POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'start' });
    }
    for (const deadline = Date.now() + 120_000; twilio.made.length < conversations;) {
      if (Date.now() > deadline) throw new Error(`only ${twilio.made.length} of ${conversations} calls were dialed`);
      await new Promise((r) => setTimeout(r, 100));
    }
    log(`relay: ${conversations} calls dialed, conversing`);
    const path = '/api/telephony/twilio/relay';
    const targets = services.map((s) => ({
      url: `${s.url.replace('http', 'ws')}${path}`,
      signedUrl: `${(env.PUBLIC_URL ?? s.url).replace('http', 'ws')}${path}`,
      pid: s.pid,
    }));
    const figures = [];
    for (const [i, size] of sizes.entries()) {
      const from = sizes.slice(0, i).reduce((a, b) => a + b, 0);
      figures.push(await round(targets, twilio.made.slice(from, from + size)));
      log('relay', JSON.stringify(figures[figures.length - 1]));
    }
    const base = await baseline(service);
    return figures.map((f) => ({ ...f, baseline_requests_per_second: base.requests_per_second }));
  } finally {
    for (const s of services) await s.stop();
    twilio.server.close();
    model.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { relayLatency };
