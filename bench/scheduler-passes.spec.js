const { execFile } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { promisify } = require('node:util');
const { startService, cli } = require('./service');
const { loadLeads, assistantBody, dialingSettings } = require('./load');

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
        const res = await fetch(`${service.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return (await res.json()).data.id;
      };
      const assistant = await post('/api/user/assistant', assistantBody('Passes'));
      campaign = await post('/api/user/campaigns', { name: 'Passes', ...dialingSettings(assistant) });
    } finally {
      await service.stop();
    }
    await loadLeads(dataDir, { userId: user.id, campaignId: campaign, count: 250 });

    const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, 'scheduler-passes.js'), String(user.id), String(campaign), '10'], {
      env: { ...process.env, ...env },
    });
    const result = JSON.parse(stdout);
    // 100, 100 and 50 claimed; the fourth pass finds none due (each call ended completed).
    expect(result).toEqual({ passes: 4, decisions: 250, cpu_ms: expect.any(Number), cpu_ms_per_decision: expect.any(Number) });
    expect(result.cpu_ms_per_decision).toBeGreaterThan(0);
  }, 60_000);
});
