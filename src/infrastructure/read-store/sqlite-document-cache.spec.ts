import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDocumentCache } from './sqlite-document-cache';
import { SqliteDocumentStore } from './sqlite-document-store';

const dir = mkdtempSync(join(tmpdir(), 'rs-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `work` while counting the statements run whose text includes `text`. */
async function counting(text: string, work: (count: () => number) => Promise<void>): Promise<void> {
  const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Database.Statement;
  let count = 0;
  const original = statement.get;
  statement.get = function (this: Database.Statement, ...args: unknown[]) {
    if (this.source.includes(text)) count++;
    return original.apply(this, args as []);
  } as typeof original;
  try {
    await work(() => count);
  } finally {
    statement.get = original;
  }
}

/**
 * Waits for the next callback of the event loop: another process's commit is news that reaches
 * a process only through one (a request, a response, a timer's poll).
 */
const nextCallback = () => new Promise((resolve) => setImmediate(resolve));

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
    await nextCallback();
    expect(await docs.get(1)).toEqual({ id: 1, v: 2 });
    expect(await docs.find({})).toEqual([{ id: 1, v: 2 }]);
    // A rebuild's switch writes documents again at the positions they had: a list reads them anew too.
    const rebuilt = new Database(file);
    rebuilt.prepare(`UPDATE rm_docs SET doc = '{"id":1,"v":3}' WHERE id = '1'`).run();
    rebuilt.close();
    await nextCallback();
    expect(await docs.find({})).toEqual([{ id: 1, v: 3 }]);
    await store.close();
  });

  it('answers a document as its own commit left it, and one absent as absent, without reading the file again', async () => {
    const store = new SqliteDocumentStore(join(dir, 'kept.db'));
    const docs = store.collection<{ id: number; tags: string[] }>('docs');
    await docs.upsert(1, { id: 1, tags: ['a'] }, 1);
    await counting('FROM rm_docs WHERE id = ?', async (reads) => {
      const written = await docs.get(1);
      expect(written).toEqual({ id: 1, tags: ['a'] });
      expect(Object.isFrozen(written!.tags)).toBe(true);
      expect(await docs.get(2)).toBeNull();
      expect(await docs.get(2)).toBeNull();
      expect(reads()).toBe(1);
      await docs.delete(1, 2);
      expect(await docs.get(1)).toBeNull();
      // A write at an earlier position than the deletion's stays refused: the tombstone's position is kept too.
      expect(await docs.upsert(1, { id: 1, tags: ['late'] }, 1)).toBe(false);
      expect(reads()).toBe(1);
    });
    const other = new Database(join(dir, 'kept.db'));
    other.prepare(`INSERT INTO rm_docs (id, pos, doc) VALUES ('2', 3, '{"id":2,"tags":[]}')`).run();
    other.close();
    await nextCallback();
    expect(await docs.get(2)).toEqual({ id: 2, tags: [] });
    await store.close();
  });

  it('adds entries without reading the file first, and answers them from memory once committed', async () => {
    const store = new SqliteDocumentStore(join(dir, 'added.db'));
    const docs = store.collection<{ id: number }>('docs');
    await counting('FROM rm_docs WHERE id = ?', async (reads) => {
      await store.exclusive('', async () => {
        for (let id = 1; id <= 100; id++) await docs.add(id, { id }, id);
      });
      expect(await docs.get(100)).toEqual({ id: 100 });
      expect(reads()).toBe(0);
    });
    await store.close();
  });

  it('reads the commit counter once for a callback and every promise it leaves due, and again in the next callback', async () => {
    const store = new SqliteDocumentStore(join(dir, 'counter.db'));
    const docs = store.collection<{ id: number }>('docs');
    await docs.upsert(1, { id: 1 }, 1);
    await nextCallback();
    await counting('PRAGMA data_version', async (reads) => {
      await Promise.all([docs.get(1), docs.get(1), docs.get(2), docs.find({})]);
      // Steps one after another, as a request's are: each a promise of its own.
      await docs.get(1);
      await Promise.resolve();
      await docs.get(2);
      expect(reads()).toBe(1);
      await nextCallback();
      await docs.get(1);
      expect(reads()).toBe(2);
    });
    await store.close();
  });

  it('reads documents at least as new as a checkpoint just read, even in the callback that read others before it moved', async () => {
    const file = join(dir, 'checkpoint.db');
    const store = new SqliteDocumentStore(file);
    const docs = store.collection<{ id: number; v: number }>('docs');
    await docs.upsert(1, { id: 1, v: 1 }, 1);
    await nextCallback();
    expect(await docs.get(1)).toEqual({ id: 1, v: 1 });
    // Another process projects the next event: the document and the checkpoint in one commit.
    const other = new Database(file);
    other.transaction(() => {
      other.prepare(`UPDATE rm_docs SET doc = '{"id":1,"v":2}', pos = 2 WHERE id = '1'`).run();
      other.prepare(`INSERT INTO checkpoints (name, position) VALUES ('docs', 2) ON CONFLICT (name) DO UPDATE SET position = 2`).run();
    })();
    other.close();
    // Still in the callback that read the document: a reader waiting for position 2 sees it and reads on.
    expect(await docs.get(1)).toEqual({ id: 1, v: 1 });
    expect(await store.getCheckpoint('docs')).toBe(2);
    expect(await docs.get(1)).toEqual({ id: 1, v: 2 });
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
  it("keeps a thousand campaigns' report documents while each campaign's turn brings five documents read once", () => {
    const db = new Database(':memory:');
    const cache = new SqliteDocumentCache(() => db);
    const read = jest.fn(() => ({ doc: { id: 1 }, stored: null, pos: 1, dirty: false }));
    let readOnce = 0;
    // Each turn: the campaign's two reports, then its lead, call and numbers, never read again.
    const turns = () => {
      for (let campaign = 0; campaign < 1_000; campaign++) {
        for (const report of ['rm_lead_report', 'rm_call_report']) cache.get(report, String(campaign), read, 0);
        for (const table of ['rm_leads', 'rm_calls', 'rm_do_not_call', 'rm_do_not_call', 'rm_leads']) cache.get(table, String(readOnce++), read, 0);
      }
    };
    turns();
    read.mockClear();
    turns();
    expect(read).toHaveBeenCalledTimes(5_000);
    db.close();
  });
  it('keeps no more than the bytes it may hold: the least recently read documents go first, and none larger than them all stays', () => {
    const db = new Database(':memory:');
    const cache = new SqliteDocumentCache(() => db, 10_000);
    const weighing = (kb: number) => () => ({ doc: { id: 1, variables: { note: 'x'.repeat(kb * 512) } }, stored: null, pos: 1, dirty: false });
    const read = jest.fn(weighing(3));
    for (const key of ['a', 'b', 'c', 'd']) cache.get('rm_leads', key, read, 0);
    expect(read).toHaveBeenCalledTimes(4);
    for (const key of ['b', 'c', 'd']) cache.get('rm_leads', key, read, 0);
    expect(read).toHaveBeenCalledTimes(4);
    cache.get('rm_leads', 'a', read, 0);
    expect(read).toHaveBeenCalledTimes(5);
    const large = jest.fn(weighing(20));
    cache.get('rm_leads', 'e', large, 0);
    cache.get('rm_leads', 'e', large, 0);
    expect(large).toHaveBeenCalledTimes(2);
    db.close();
  });
});
