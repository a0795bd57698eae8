import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { FakeProvider, eventually } from '../support/fake-provider';
import { cli, startService } from '../support/processes';

const json = async (response: Response): Promise<any> => response.json();

const SECRET = 'telephony-secret-for-the-log-test';
const NUMBERS = ['+12015557001', '+12015557002'];

/** docs/api.md: one JSON line a request, with its id, route, status, duration and user; nothing secret. */
describe('logs', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'logs-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('writes a JSON line per request with the echoed request id, and never a token, secret or full phone number', async () => {
    const provider = new FakeProvider(SECRET, () => 'human');
    const dialUrl = await provider.start();
    const env = {
      DATA_DIR: dataDir(),
      LOG_LEVEL: 'log',
      DIALER: 'http',
      DIALER_URL: dialUrl,
      TELEPHONY_SECRET: SECRET,
      DIAL_INTERVAL_MS: '20',
    };
    const service = await startService(env);
    try {
      const { json: user } = await cli(env, 'users:create', '--email', 'logs@example.com');
      const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        fetch(`${service.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const echoed = await call('GET', '/api/user/me', undefined, { 'x-request-id': 'trace-42' });
      expect(echoed.headers.get('x-request-id')).toBe('trace-42');
      const made = await call('GET', '/api/user/me', undefined, { 'x-request-id': 'not a token {"x":1}' });
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

      const assistant = (await json(await call('POST', '/api/user/assistant', requiredAssistantSettings))).data.id;
      const campaign = (
        await json(
          await call('POST', '/api/user/campaigns', {
            name: 'Logged',
            assistant_id: assistant,
            calling_hours: { start: '00:00', end: '24:00' },
            calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
          }),
        )
      ).data.id;
      for (const phone_number of NUMBERS) expect((await call('POST', '/api/user/lead', { campaign_id: campaign, phone_number })).status).toBe(200);
      await call('GET', `/api/user/leads?phone_number=${encodeURIComponent(NUMBERS[0])}`);
      await call('POST', '/api/user/campaigns/update-status', { campaign_id: campaign, action: 'start' });
      await eventually(async () => (await json(await call('GET', `/api/user/campaigns/${campaign}`))).status === 'completed', 15_000, 'the campaign');
      await eventually(() => service.stdout().includes('/api/telephony/calls/:call_id/events'), 5_000, 'a telephony request logged');

      const lines = service
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const requests = lines.filter((l) => l.msg === 'request completed');
      expect(requests.find((l) => l.req.id === 'trace-42')).toEqual({
        level: 'info',
        time: expect.any(String),
        pid: service.child.pid,
        hostname: expect.any(String),
        req: { id: 'trace-42', method: 'GET', route: '/api/user/me' },
        user_id: user.id,
        res: { status: 200 },
        duration_ms: expect.any(Number),
        msg: 'request completed',
      });
      expect(requests.filter((l) => l.req.route === '/api/user/lead')).toHaveLength(2);
      expect(requests.find((l) => l.req.route === '/api/user/campaigns/:id')).toMatchObject({ user_id: user.id, res: { status: 200 } });
      expect(requests.find((l) => l.req.route === '/api/telephony/calls/:call_id/events')).toMatchObject({ res: { status: 200 } });
      // Nest's route mapping is at debug only.
      expect(lines.some((l) => l.context === 'RouterExplorer' || l.context === 'RoutesResolver')).toBe(false);

      const output = service.stdout();
      expect(output).not.toContain(user.token);
      expect(output).not.toContain(SECRET);
      for (const number of NUMBERS) {
        expect(output).not.toContain(number);
        expect(output).not.toContain(number.slice(1));
      }
      expect(output).not.toMatch(/authorization|x-signature/i);
    } finally {
      await service.stop();
      await provider.stop();
    }
  });

  it('writes readable lines instead when asked (LOG_PRETTY=true)', async () => {
    const service = await startService({ DATA_DIR: dataDir(), LOG_LEVEL: 'log', LOG_PRETTY: 'true' });
    try {
      await fetch(`${service.url}/health`, { headers: { 'x-request-id': 'pretty-1' } });
      await eventually(() => service.stdout().includes('pretty-1'), 5_000, 'the request line');
      const output = service.stdout();
      expect(output).toContain('request completed');
      expect(output.split('\n').filter((l) => l.startsWith('{'))).toEqual([]);
    } finally {
      await service.stop();
    }
  });
});
