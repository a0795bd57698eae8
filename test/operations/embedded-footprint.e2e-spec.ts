import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../support/processes';

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
});
