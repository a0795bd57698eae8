import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDocumentStore } from './sqlite-document-store';
import { StoreBeingRebuilt } from './sqlite-rebuild-file';

const dir = mkdtempSync(join(tmpdir(), 'rs-rebuild-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded SQLite rebuilds', () => {
  it('writes a new file beside the store and renames it over the store at the end: readers of the store see it whole before, and the new one after', async () => {
    const file = join(dir, 'swap.db');
    const store = new SqliteDocumentStore(file);
    const docs = store.collection<{ id: number }>('docs');
    await docs.upsert(1, { id: 1 }, 1);
    const seen: string[][] = [];
    await store.refill(['docs'], async () => {
      await docs.upsert(2, { id: 2 }, 2);
      seen.push(
        readdirSync(dir)
          .filter((f) => f.startsWith('swap.db'))
          .sort(),
      );
      const reader = new Database(file, { readonly: true });
      seen.push(reader.prepare('SELECT id FROM rm_docs').pluck().all() as string[]);
      reader.close();
    });
    expect(seen).toEqual([
      ['swap.db', 'swap.db-shm', 'swap.db-wal', `swap.db.rebuild-${process.pid}`, `swap.db.rebuild-${process.pid}-shm`, `swap.db.rebuild-${process.pid}-wal`],
      ['1'],
    ]);
    expect(readdirSync(dir).filter((f) => f.startsWith('swap.db.rebuild'))).toEqual([]);
    expect((await docs.find({})).map((d) => d.id)).toEqual([2]);
    await store.close();
    const reopened = new SqliteDocumentStore(file);
    expect((await reopened.collection<{ id: number }>('docs').find({})).map((d) => d.id)).toEqual([2]);
    await reopened.close();
  });

  it('reads back the documents of earlier batches, committed by its writer or not yet', async () => {
    const store = new SqliteDocumentStore(join(dir, 'chained.db'));
    const docs = store.collection<{ id: number; n: number }>('docs');
    await store.refill(['docs'], async () => {
      for (let pos = 1; pos <= 20; pos++) {
        await store.exclusive('p', async () => {
          const doc = await docs.get(1);
          await docs.upsert(1, { id: 1, n: (doc?.n ?? 0) + 1 }, pos);
          await docs.upsert(pos + 1, { id: pos + 1, n: 0 }, pos);
          await store.setCheckpoint('docs', pos);
          expect(await store.getCheckpoint('docs')).toBe(pos);
        });
        expect(await store.getCheckpoint('docs')).toBe(pos);
      }
    });
    expect(await docs.get(1)).toEqual({ id: 1, n: 20 });
    expect(await docs.count()).toBe(21);
    expect(await store.getCheckpoint('docs')).toBe(20);
    await store.close();
  });

  it("runs a refill's batches in no async context (Node's promise hooks stay off in a rebuild); a write from elsewhere meanwhile lands in the new file", async () => {
    const store = new SqliteDocumentStore(join(dir, 'contextless.db'));
    const docs = store.collection<{ id: number }>('docs');
    await docs.upsert(1, { id: 1 }, 1);
    const contexts = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    // Its own switched off: with no other in use, Node turns its promise hooks off.
    const switchedOff = jest.spyOn(AsyncLocalStorage.prototype, 'disable');
    try {
      let elsewhere: Promise<boolean> | undefined;
      let issued!: () => void;
      const written = new Promise<void>((resolve) => (issued = resolve));
      // Another writer, outside the refill's work: its write comes while a batch of the refill awaits.
      setTimeout(() => {
        elsewhere = docs.upsert(3, { id: 3 }, 3);
        issued();
      }, 0);
      await store.refill(['docs'], async () => {
        await store.exclusive('projections', async () => {
          await docs.upsert(2, { id: 2 }, 2);
          await written;
          await docs.upsert(4, { id: 4 }, 4);
        });
      });
      expect(await elsewhere).toBe(true);
      expect(contexts).not.toHaveBeenCalled();
      expect(switchedOff).toHaveBeenCalled();
      expect((await docs.find({}, { sort: [['id', 'asc']] })).map((d) => d.id)).toEqual([2, 3, 4]);
      // Batches after the refill are made in their context again.
      await store.exclusive('projections', () => docs.upsert(5, { id: 5 }, 5));
      expect(contexts).toHaveBeenCalled();
    } finally {
      contexts.mockRestore();
      switchedOff.mockRestore();
      await store.close();
    }
  });

  it('fails a rebuild whose writer fails (a unique index refusing a document), and leaves the store as it was', async () => {
    const store = new SqliteDocumentStore(join(dir, 'refused.db'));
    const docs = store.collection<{ id: number; v: number }>('docs', { indexes: [{ fields: ['v'], unique: true }] });
    await docs.upsert(1, { id: 1, v: 1 }, 1);
    const refill = store.refill(['docs'], async () => {
      for (let id = 1; id <= 6; id++) await docs.upsert(id, { id, v: 7 }, id);
    });
    await expect(refill).rejects.toThrow(/UNIQUE constraint failed/);
    expect(await docs.find({})).toEqual([{ id: 1, v: 1 }]);
    expect(readdirSync(dir).filter((f) => f.startsWith('refused.db.rebuild'))).toEqual([]);
    await store.close();
  });

  it('does not swap a rebuild in while another connection holds the store, which stays as it was and usable', async () => {
    const file = join(dir, 'held.db');
    const store = new SqliteDocumentStore(file);
    const docs = store.collection<{ id: number }>('docs');
    await docs.upsert(1, { id: 1 }, 1);
    const other = new Database(file);
    other.prepare('SELECT count(*) FROM rm_docs').get();
    await expect(store.refill(['docs'], async () => docs.upsert(2, { id: 2 }, 2))).rejects.toThrow(
      'Another connection holds held.db: stop it, then rebuild again',
    );
    other.close();
    expect((await docs.find({})).map((d) => d.id)).toEqual([1]);
    await docs.upsert(3, { id: 3 }, 3);
    expect(await docs.count()).toBe(2);
    expect(readdirSync(dir).filter((f) => f.startsWith('held.db.rebuild'))).toEqual([]);
    await store.close();
  });

  it('removes the file of a rebuild whose process ended, and refuses to open the store while a live process rebuilds it', async () => {
    const file = join(dir, 'leftover.db');
    new SqliteDocumentStore(file).close();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(`${file}.rebuild-${child.pid}`, 'half written');
      expect(() => new SqliteDocumentStore(file)).toThrow(new StoreBeingRebuilt(file, child.pid!));
      expect(new StoreBeingRebuilt(file, 42).message).toBe('leftover.db is being rebuilt by process 42; open it once that process has ended');
    } finally {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    }
    const store = new SqliteDocumentStore(file);
    expect(existsSync(`${file}.rebuild-${child.pid}`)).toBe(false);
    await store.close();
  });
});
