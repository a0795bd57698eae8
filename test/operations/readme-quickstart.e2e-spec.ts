import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../support/processes';

const root = join(__dirname, '..', '..');

/** The README's quickstart block, as a user copies it. */
function quickstart(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quickstart'));
  const block = /```bash\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('the README has no quickstart block');
  return block[1];
}

describe("the README's quickstart", () => {
  it('takes a new user from nothing to a dialed campaign, with its calls, stats and history', async () => {
    expect(spawnSync('jq', ['--version']).status).toBe(0); // the quickstart reads answers with jq
    const dataDir = mkdtempSync(join(tmpdir(), 'quickstart-'));
    const service = await startService({ DATA_DIR: dataDir });
    try {
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', quickstart()], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir, API: `${service.url}/api/user` },
        encoding: 'utf8',
        timeout: 90_000,
        // Not a socket on stdin: bash then takes itself for a remote shell and reads the system's bashrc.
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const lines = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.slice(0, 4)).toEqual([
        { id: 1, status: 'created' },
        { id: 2, status: 'created' },
        // docs/forecast.md: before the start, both leads callable at once in an all-day window.
        { first_dial_at: expect.any(String), ends_at: expect.any(String), leads: { total: 2, callable: 2, never_callable: { total: 0, by_reason: {} } } },
        { campaign_id: 1, status: 'in-progress' },
      ]);
      const calls = lines.filter((line) => 'client_phone_number' in line);
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(calls.map((c) => c.client_phone_number)).toEqual(expect.arrayContaining(['+12025550101', '+12025550103']));
      expect(lines.find((line) => 'stats' in line)).toMatchObject({ status: 'in-progress', stats: { calls_in_flight: expect.any(Number) } });
      expect(lines.filter((line) => 'occurred_at' in line).map((e) => e.type)).toEqual(
        expect.arrayContaining(['CampaignCreated', 'CampaignStarted', 'LeadCallStarted']),
      );
      // docs/reports.md: the report, and the calls exported as NDJSON with their variables.
      const report = lines.find((line) => 'leads' in line && 'rate' in line);
      expect(report).toMatchObject({ leads: { total: 2 }, rate: expect.any(Number) });
      // Later than the list, so it may hold a call more.
      expect(report.calls).toBeGreaterThanOrEqual(calls.length);
      const exported = lines.filter((line) => 'var_customer_name' in line);
      expect(exported.map((c) => c.id)).toEqual(expect.arrayContaining(calls.map((c) => c.id)));
      expect(exported.map((c) => c.var_customer_name)).toContain('Ann');
    } finally {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
