const { execFile } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { promisify } = require('node:util');
const { startService, cli } = require('./service');
const { loadLeads } = require('./load');

const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

// The scheduler's figure is only what it says if every pass finds its slots free and claims them.
describe('bench scheduler passes', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-passes-'));
  const env = { DATA_DIR: dataDir };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('claims up to the campaign limit in each pass until no lead is due, and times the passes', async () => {
    const service = await startService(env);
    let user, campaign;
    try {
      user = await cli(env, 'users:create', '--email', 'passes@example.com');
      const post = async (path, body) => {
        const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return (await res.json()).data.id;
      };
      const assistant = await post('/api/user/assistant', { assistant_name: 'Passes', voice_id: 1, language: 'English', llm_model: 'gpt-4o', calls_direction: 'make', engine_type: 'pipeline', timezone: 'UTC', initial_message: 'Hi', system_prompt: 'Be brief.' });
      campaign = await post('/api/user/campaigns', { name: 'Passes', assistant_id: assistant, max_concurrent_calls: 100, calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY });
    } finally {
      await service.stop();
    }
    await loadLeads(dataDir, { userId: user.id, campaignId: campaign, count: 250 });

    const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, 'scheduler-passes.js'), String(user.id), String(campaign), '10'], { env: { ...process.env, ...env } });
    const result = JSON.parse(stdout);
    // 100, 100 and 50 claimed; the fourth pass finds none due (each call ended completed).
    expect(result).toEqual({ passes: 4, decisions: 250, cpu_ms: expect.any(Number), cpu_ms_per_decision: expect.any(Number) });
    expect(result.cpu_ms_per_decision).toBeGreaterThan(0);
  }, 60_000);
});
