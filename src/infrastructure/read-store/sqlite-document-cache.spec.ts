import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDocumentStore } from './sqlite-document-store';

const dir = mkdtempSync(join(tmpdir(), 'rs-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded SQLite documents kept parsed', () => {
  it('answers the same frozen document to every reader until the store writes it again', async () => {
    const store = new SqliteDocumentStore(join(dir, 'frozen.db'));
    const docs = store.collection<{ id: number; tags: string[] }>('docs');
    await docs.upsert(1, { id: 1, tags: ['a'] }, 1);
    const first = await docs.get(1);
    expect(await docs.get(1)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first!.tags)).toBe(true);
    expect((await docs.find({}))[0]).toBe(first);
    await docs.upsert(1, { id: 1, tags: ['b'] }, 2);
    expect(await docs.get(1)).toEqual({ id: 1, tags: ['b'] });
    const listed = await docs.find({});
    expect(listed).toEqual([{ id: 1, tags: ['b'] }]);
    expect(await docs.get(1)).toBe(listed[0]);
    await store.close();
  });

  it('reads the file again once another connection has committed to it', async () => {
    const file = join(dir, 'shared.db');
    const store = new SqliteDocumentStore(file);
    const docs = store.collection<{ id: number; v: number }>('docs');
    await docs.upsert(1, { id: 1, v: 1 }, 1);
    expect(await docs.get(1)).toEqual({ id: 1, v: 1 });
    const other = new Database(file);
    other.prepare(`UPDATE rm_docs SET doc = '{"id":1,"v":2}', pos = 2 WHERE id = '1'`).run();
    other.close();
    expect(await docs.get(1)).toEqual({ id: 1, v: 2 });
    expect(await docs.find({})).toEqual([{ id: 1, v: 2 }]);
    // A rebuild's switch writes documents again at the positions they had: a list reads them anew too.
    const rebuilt = new Database(file);
    rebuilt.prepare(`UPDATE rm_docs SET doc = '{"id":1,"v":3}' WHERE id = '1'`).run();
    rebuilt.close();
    expect(await docs.find({})).toEqual([{ id: 1, v: 3 }]);
    await store.close();
  });

  it('forgets every document of a collection emptied', async () => {
    const store = new SqliteDocumentStore(join(dir, 'cleared.db'));
    const docs = store.collection<{ id: number }>('docs');
    await docs.upsert(1, { id: 1 }, 1);
    expect(await docs.get(1)).toEqual({ id: 1 });
    await store.clearCollection('docs');
    expect(await docs.get(1)).toBeNull();
    await store.close();
  });
});
