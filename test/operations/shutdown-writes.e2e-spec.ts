import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { cli, startService } from '../support/processes';

/**
 * Creates that reach the service while SIGTERM stops it are either answered with what they
 * wrote or not taken at all: never "saved but cannot be read back", which a client retrying on
 * 503 would turn into a second lead (docs/api.md).
 */
describe('writes during a SIGTERM', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-sigterm-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers every create it took with its lead, and no 503', async () => {
    const env = { DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '1000000' };
    const { token } = (await cli(env, 'users:create', '--email', 'term@example.com')).json;
    const service = await startService(env);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
    const post = (path: string, body: object) => fetch(`${service.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const assistant = ((await (await post('/api/user/assistant', requiredAssistantSettings)).json()) as any).data.id;
    const campaign = ((await (await post('/api/user/campaigns', { name: 'Term', assistant_id: assistant })).json()) as any).data.id;
    const answers: Array<{ status: number; id?: number } | { failed: true }> = [];
    let n = 0;
    const client = async () => {
      for (;;) {
        try {
          const res = await post('/api/user/lead', { campaign_id: campaign, phone_number: `+1201555${String(n++).padStart(4, '0')}` });
          const body = (await res.json()) as any;
          answers.push({ status: res.status, id: body.data?.id });
        } catch {
          answers.push({ failed: true });
          return;
        }
      }
    };
    const clients = Array.from({ length: 20 }, client);
    await new Promise((r) => setTimeout(r, 500));
    await service.stop();
    await Promise.all(clients);
    const statuses = answers.filter((a): a is { status: number; id?: number } => 'status' in a).map((a) => a.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses.length).toBeGreaterThan(20);

    const again = await startService(env);
    try {
      const stored = (await (await fetch(`${again.url}/api/user/leads?campaign_id=${campaign}`, { headers })).json()) as Array<{ id: number }>;
      const storedIds = new Set(stored.map((l) => l.id));
      const answered = answers.flatMap((a) => ('id' in a && a.id ? [a.id] : []));
      expect(answered.filter((id) => !storedIds.has(id))).toEqual([]);
    } finally {
      await again.stop();
    }
  });
});
