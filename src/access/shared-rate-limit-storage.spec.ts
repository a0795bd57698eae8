import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceInstances } from '../infrastructure/instances/service-instances';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';
import { SharedRateLimitStorage } from './shared-rate-limit-storage';

describe('SharedRateLimitStorage', () => {
  let dir: string;
  const stores: SqliteDocumentStore[] = [];
  let now = 600_000;

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rate-'))));
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An instance's storage; `others` is how many other instances it sees beating. */
  async function instance(others: number) {
    const store = new SqliteDocumentStore(join(dir, 'read.db'));
    stores.push(store);
    const instances = { running: async () => Array.from({ length: others }, (_, id) => ({ id })) } as unknown as ServiceInstances;
    const storage = new SharedRateLimitStorage(store, instances, () => now);
    await storage.onApplicationBootstrap();
    return storage;
  }

  const hit = (storage: SharedRateLimitStorage, key = 'token-a') => storage.increment(key, 60_000, 3, 60_000, 'default');

  it('counts the requests of one token across instances: the limit holds for their sum', async () => {
    const [a, b, c] = await Promise.all([instance(2), instance(2), instance(2)]);
    const answers = [await hit(a), await hit(b), await hit(c), await hit(a)];
    expect(answers.map((r) => r.isBlocked)).toEqual([false, false, false, true]);
    expect(answers[3].timeToBlockExpire).toBe(60);
    expect((await hit(b, 'token-b')).isBlocked).toBe(false);
    // The next window counts from nothing.
    now += 60_000;
    expect((await hit(c)).isBlocked).toBe(false);
    for (const s of [a, b, c]) s.onApplicationShutdown();
  });

  it('counts in memory when alone: another store sees none of it', async () => {
    const alone = await instance(0);
    for (let i = 0; i < 3; i++) expect((await hit(alone)).isBlocked).toBe(false);
    expect((await hit(alone)).isBlocked).toBe(true);
    const other = await instance(1);
    expect((await hit(other)).totalHits).toBe(1);
    alone.onApplicationShutdown();
    other.onApplicationShutdown();
  });

  it('keeps one timer however often it is started, and none once shut down', async () => {
    const store = new SqliteDocumentStore(join(dir, 'read.db'));
    stores.push(store);
    const instances = { running: async () => [] } as unknown as ServiceInstances;
    const storage = new SharedRateLimitStorage(store, instances, () => now);
    const intervals = jest.spyOn(global, 'setInterval');
    const cleared = jest.spyOn(global, 'clearInterval');
    try {
      // Nest starts it once for each module it is reached through.
      await Promise.all([storage.onApplicationBootstrap(), storage.onApplicationBootstrap()]);
      await storage.onApplicationBootstrap();
      const made = intervals.mock.results.map((r) => r.value);
      expect(made).toHaveLength(1);
      storage.onApplicationShutdown();
      expect(cleared.mock.calls.map(([timer]) => timer)).toEqual(expect.arrayContaining(made));
    } finally {
      intervals.mockRestore();
      cleared.mockRestore();
    }
  });
});
