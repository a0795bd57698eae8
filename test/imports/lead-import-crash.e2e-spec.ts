import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite-event-store';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { eventually } from '../support/fake-provider';
import { cli, startService } from '../support/processes';

const ROWS = 20_000;

/** docs/imports.md: an import cut by a SIGKILL is finished by the restarted service, no row lost or made twice. */
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

  it('ends failed an import whose upload died with its process, keeping whole batches and no file', async () => {
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'voice-upload-crash-')) };
    const { token } = (await cli(env, 'users:create', '--email', 'upload-crash@example.com')).json;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
    let service = await startService(env);
    const call = (method: string, path: string, body?: object) =>
      fetch(`${service.url}${path}`, { method, headers, body: body && JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
    try {
      const assistant = (await call('POST', '/api/user/assistant', requiredAssistantSettings)).data.id;
      const campaign = (await call('POST', '/api/user/campaigns', { name: 'Upload crash', assistant_id: assistant })).data.id;
      let send!: (text: string) => void;
      const body = new ReadableStream<Uint8Array>({ start: (controller) => (send = (text) => controller.enqueue(new TextEncoder().encode(text))) });
      const answered = fetch(`${service.url}/api/user/campaigns/${campaign}/leads/import`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/csv' },
        body,
        duplex: 'half',
      } as RequestInit).catch(() => null);
      send(`phone_number\n${Array.from({ length: 1200 }, (_, i) => `+1201${String(4_000_000 + i)}\n`).join('')}`);
      // The body is left open: the upload is still running when its process dies.
      const partway = await eventually(
        async () => (await call('GET', '/api/user/lead-imports')).data[0]?.rows >= 500 && (await call('GET', '/api/user/lead-imports')).data[0],
        30_000,
        'rows made',
      );
      expect(partway).toMatchObject({ status: 'running' });
      service.child.kill('SIGKILL');
      await new Promise((r) => service.child.once('exit', r));
      await answered;

      service = await startService(env);
      const done = await eventually(
        async () => {
          const progress = await call('GET', `/api/user/lead-imports/${partway.id}`);
          return progress.status !== 'running' && progress;
        },
        30_000,
        'the import to end after the restart',
      );
      // The batch in hand at the stop, if any, was made on its ids; the rows after it were not.
      expect(done).toMatchObject({ status: 'failed', invalid: 0, duplicates: 0 });
      expect(done.rows % 500).toBe(0);
      expect(done.accepted).toBe(done.rows);
      const leads = (await call('GET', `/api/user/leads?campaign_id=${campaign}&per_page=1000`)) as Array<{ phone_number: string }>;
      expect(leads).toHaveLength(done.accepted);
      // The file goes once the import is recorded failed: a moment after the status a reader sees.
      await eventually(async () => readdirSync(join(env.DATA_DIR, 'imports')).length === 0, 5_000, 'the import file removed');
    } finally {
      await service.stop();
      rmSync(env.DATA_DIR, { recursive: true, force: true });
    }
  }, 120_000);
});
