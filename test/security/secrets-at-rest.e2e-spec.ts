import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crmTool } from '../support/all-day-campaign';
import { cli, startService } from '../support/processes';

/** Every file under `dir`, at any depth. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

/** docs/privacy.md: webhook secrets and tool header values are never written in plain text; keys that rotate. */
describe('secrets at rest', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-sealed-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seals them in every file of the data directory, stops a start missing a key (78, naming it), and rotates keys', async () => {
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'log' };
    const service = await startService(env);
    let token: string;
    let secret: string;
    try {
      ({ token, webhook_secret: secret } = (await cli(env, 'users:create', '--email', 'sealed@example.com')).json);
      const tool = await fetch(`${service.url}/api/user/tools`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(crmTool('crm-credential-4711')),
      });
      expect(tool.status).toBe(201);
      expect(service.stdout()).toContain(join(dataDir, 'data-keys'));
    } finally {
      await service.stop();
    }
    expect(statSync(join(dataDir, 'data-keys')).mode & 0o777).toBe(0o600);
    for (const file of filesUnder(dataDir)) {
      const bytes = readFileSync(file);
      expect([file, bytes.includes(secret)]).toEqual([file, false]);
      expect([file, bytes.includes('crm-credential-4711')]).toEqual([file, false]);
    }

    const fileKey = readFileSync(join(dataDir, 'data-keys'), 'utf8').trim();
    const newKey = `k2:${randomBytes(32).toString('base64')}`;
    const refused = await startService({ ...env, DATA_KEYS: newKey }).catch((error: Error) => error);
    expect(String(refused)).toContain('service exited with 78');
    expect(String(refused)).toContain('DATA_KEYS has no key "k1"');

    expect((await cli({ ...env, DATA_KEYS: `${newKey},${fileKey}` }, 'keys:rotate')).json).toEqual({ rewrapped: 2, master_key: 'k2' });
    const rotated = await startService({ ...env, DATA_KEYS: newKey });
    try {
      const me = await fetch(`${rotated.url}/api/user/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
    } finally {
      await rotated.stop();
    }
  }, 60_000);
});
