import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/fake-provider';
import { startService } from '../support/processes';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { startTestApp } from '../support/test-app';

/** The embedded default never loads the EventStoreDB or MongoDB clients: their memory and start time would be spent for nothing. */
describe('the service on the embedded default', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'voice-footprint-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers with both stores up without loading the EventStoreDB or MongoDB client', async () => {
    const listFile = join(dir, 'modules.json');
    const service = await startService({
      DATA_DIR: join(dir, 'data'),
      NODE_OPTIONS: `--require ${join(__dirname, '..', 'support', 'record-loaded-modules.js')}`,
      LOADED_MODULES_FILE: listFile,
    });
    try {
      expect(await (await fetch(`${service.url}/health`)).json()).toMatchObject({ checks: { event_store: 'up', read_store: 'up' } });
      service.child.kill('SIGUSR2');
      for (const deadline = Date.now() + 5_000; !existsSync(listFile); await new Promise((r) => setTimeout(r, 20))) {
        if (Date.now() > deadline) throw new Error('the service did not write its modules: the recorder was not preloaded');
      }
    } finally {
      await service.stop();
    }
    const packages = new Set((JSON.parse(readFileSync(listFile, 'utf8')) as string[]).map((path) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(path)?.[1]));
    expect(packages).toContain('better-sqlite3');
    for (const unused of ['@eventstore/db-client', '@grpc/grpc-js', 'mongoose', 'mongodb']) expect(packages).not.toContain(unused);
  });

  it("copies each embedded file's log into the file from a thread of its own, the key store's too: a request never waits on that copy", async () => {
    const t = await startTestApp({}, { background: true });
    try {
      const user = await t.createUser();
      const assistant = (await t.request('POST', '/api/user/assistant', { token: user.token, body: requiredAssistantSettings })).body.data.id;
      const campaign = (await t.request('POST', '/api/user/campaigns', { token: user.token, body: { name: 'Keys', assistant_id: assistant } })).body.data.id;
      // A new number makes its person's key: the key store's log gains pages its own connection would copy only at 1,000.
      const created = await t.request('POST', '/api/user/lead', { token: user.token, body: { campaign_id: campaign, phone_number: '+12025550143' } });
      expect(created.status).toBe(200);
      for (const name of ['events.db', 'read.db', 'keys.db']) {
        const file = join(t.dataDir, name);
        const copied = () => {
          const db = new Database(file, { readonly: true });
          try {
            return statSync(file).size === (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
          } finally {
            db.close();
          }
        };
        await eventually(copied);
      }
    } finally {
      await t.close();
    }
  });
});
