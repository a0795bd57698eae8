import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite-event-store';
import { requiredAssistantSettings } from '../src/testing/assistant.fixture';
import { eventually } from './support/fake-provider';
import { cli, startService } from './support/processes';

const ROWS = 20_000;

/** Contract §15: an import cut by a SIGKILL is finished by the restarted service, no row lost or made twice. */
describe('a SIGKILL in the middle of an import', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-import-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('goes on after the restart from the last batch done, with exact counts', async () => {
    const env = { DATA_DIR: dataDir };
    const { token } = (await cli(env, 'users:create', '--email', 'import-crash@example.com')).json;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
    let service = await startService(env);
    const call = (method: string, path: string, body?: object) =>
      fetch(`${service.url}${path}`, { method, headers, body: body && JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
    // Every 100th row has no valid number; every 250th repeats the number of the row before it.
    const numbers: string[] = [];
    const lines = ['phone_number,n'];
    for (let i = 1; i <= ROWS; i++) {
      const number = i % 100 === 0 ? 'bad' : i % 250 === 1 && i > 1 ? numbers[numbers.length - 1] : `+1201${String(5_000_000 + i)}`;
      if (number !== 'bad') numbers.push(number);
      lines.push(`${number},${i}`);
    }
    const invalid = ROWS / 100;
    const duplicates = Array.from({ length: ROWS }, (_, k) => k + 1).filter((i) => i % 250 === 1 && i > 1 && i % 100 !== 0).length;
    try {
      const assistant = (await call('POST', '/api/user/assistant', requiredAssistantSettings)).data.id;
      const campaign = (await call('POST', '/api/user/campaigns', { name: 'Crash import', assistant_id: assistant })).data.id;
      const started = await fetch(`${service.url}/api/user/campaigns/${campaign}/leads/import`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/csv' },
        body: `${lines.join('\n')}\n`,
      });
      expect(started.status).toBe(202);
      const id = ((await started.json()) as { data: { id: number } }).data.id;
      const partway = await eventually(
        async () => {
          const progress = await call('GET', `/api/user/lead-imports/${id}`);
          return progress.rows > 0 && progress;
        },
        30_000,
        'some rows done',
      );
      expect(partway.status).toBe('running');
      service.child.kill('SIGKILL');
      await new Promise((r) => service.child.once('exit', r));

      service = await startService(env);
      const done = await eventually(
        async () => {
          const progress = await call('GET', `/api/user/lead-imports/${id}`);
          return progress.status !== 'running' && progress;
        },
        60_000,
        'the import to finish after the restart',
      );
      expect(done).toMatchObject({ status: 'completed', rows: ROWS, accepted: ROWS - invalid - duplicates, duplicates, invalid });
      expect(done.errors).toHaveLength(invalid + duplicates);
    } finally {
      await service.stop();
    }
    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    try {
      const created = (await store.readAll(0, 10_000_000)).filter((e) => e.type === 'LeadCreated');
      expect(created).toHaveLength(ROWS - invalid - duplicates);
      expect(new Set(created.map((e) => e.data.phone_number)).size).toBe(created.length);
    } finally {
      await store.close();
    }
  }, 150_000);
});
