import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLeased } from './leased-work';
import { SqliteDocumentStore } from './sqlite-document-store';

/** Work run alone among processes through the store's leases (MongoDB's projection batches and version resets use it). */
describe('leased work', () => {
  let dir: string;
  let store: SqliteDocumentStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'leased-'));
    store = new SqliteDocumentStore(join(dir, 'read.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs one of two at once, the other told it did not run; the next runs once the first let go', async () => {
    let release!: () => void;
    const first = runLeased(store, 'projections', () => new Promise<string>((resolve) => (release = () => resolve('first'))), { owner: 'a' });
    await new Promise((r) => setTimeout(r, 20));
    expect(await runLeased(store, 'projections', async () => 'second', { owner: 'b' })).toEqual({ ran: false });
    release();
    expect(await first).toEqual({ ran: true, result: 'first' });
    expect(await runLeased(store, 'projections', async () => 'third', { owner: 'b' })).toEqual({ ran: true, result: 'third' });
  });

  it('keeps the lease through work longer than the lease, renewing it, and lets it go on a failure', async () => {
    const long = runLeased(store, 'reset', () => new Promise((r) => setTimeout(() => r('done'), 250)), { owner: 'a', leaseMs: 60 });
    await new Promise((r) => setTimeout(r, 150));
    expect(await runLeased(store, 'reset', async () => 'other', { owner: 'b', leaseMs: 60 })).toEqual({ ran: false });
    expect(await long).toEqual({ ran: true, result: 'done' });
    await expect(runLeased(store, 'reset', async () => Promise.reject(new Error('broke')), { owner: 'a' })).rejects.toThrow('broke');
    expect(await runLeased(store, 'reset', async () => 'after', { owner: 'b' })).toEqual({ ran: true, result: 'after' });
  });
});
