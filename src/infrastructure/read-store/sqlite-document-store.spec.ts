import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { atomicBatchContract, documentStoreContract } from './document-store.contract';
import { countFromAnotherConnection } from '../../testing/another-connection';
import { queryPlans, sqliteOf } from '../../testing/sqlite-query-plans';
import { writerInAnotherProcess } from '../../testing/writer-in-another-process';
import { unsyncedMarker } from '../sqlite/unsynced-mark';
import { CollectionOptions } from './document-store.port';
import { COUNT_COMMIT, OTHER_WRITERS_LOOK_MS } from './other-writers';
import { SqliteDocumentStore } from './sqlite-document-store';

const dir = mkdtempSync(join(tmpdir(), 'rs-contract-'));
const harness = {
  open: async () => new SqliteDocumentStore(join(dir, 'read.db')),
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sqlOf = (store: SqliteDocumentStore, sql: string) => sqliteOf(store).prepare(sql).pluck().all() as string[];

documentStoreContract('embedded SQLite', harness);
atomicBatchContract('embedded SQLite', harness);

describe('embedded SQLite query plans', () => {
  it('keeps index statistics for the planner without the samples that make statements prepare again at every run', async () => {
    const file = join(dir, 'stats.db');
    const first = new SqliteDocumentStore(file);
    const leads = first.collection('leads', { indexes: [{ fields: ['campaign_id', 'phone_number'] }] });
    for (let id = 1; id <= 300; id++) await leads.upsert(id, { id, campaign_id: id % 3, phone_number: `+1212555${String(id).padStart(4, '0')}` }, id);
    await first.close();
    // A later open finds the table grown and gathers statistics again.
    const store = new SqliteDocumentStore(file);
    store.collection('leads', { indexes: [{ fields: ['campaign_id', 'phone_number'] }, { fields: ['phone_number'] }] });
    const db = sqliteOf(store);
    expect(db.prepare("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'rm_leads'").pluck().get()).toBeGreaterThan(0);
    expect(db.prepare('SELECT count(*) FROM sqlite_stat4').pluck().get()).toBe(0);
    await store.close();
  });

  it('answers an indexed filter and sort from the index, not a table scan', async () => {
    const store = new SqliteDocumentStore(join(dir, 'plan.db'));
    const leads = store.collection('leads', { indexes: [{ fields: ['user_id', 'campaign_id', 'id'] }] });
    await leads.upsert(1, { id: 1, user_id: 1, campaign_id: 2 }, 1);
    const { plans, result } = await queryPlans(store, () => leads.find({ user_id: 1, campaign_id: 2 }, { sort: [['id', 'asc']], limit: 10 }));
    expect(result).toEqual([{ id: 1, user_id: 1, campaign_id: 2 }]);
    expect(plans).toHaveLength(1);
    const [plan] = plans;
    expect(plan).toContain('USING INDEX rm_leads__user_id__campaign_id__id');
    expect(plan).not.toContain('TEMP B-TREE');
    await store.close();
  });

  it('keeps indexed columns right when a batch changes some indexed fields and not others', async () => {
    const store = new SqliteDocumentStore(join(dir, 'columns.db'));
    const calls = store.collection<{ id: number; user_id: number; status: string; deadline_at: number | null }>('calls', {
      indexes: [{ fields: ['user_id', 'status', 'id'] }, { fields: ['deadline_at'] }],
    });
    await calls.upsert(1, { id: 1, user_id: 1, status: 'initiated', deadline_at: 100 }, 1);
    await store.exclusive('p', async () => {
      const call = (await calls.get(1))!;
      await calls.upsert(1, { ...call, status: 'ringing' }, 2);
      await calls.upsert(1, { ...(await calls.get(1))!, status: 'completed', deadline_at: null }, 3);
    });
    await calls.upsert(1, { id: 1, user_id: 2, status: 'completed', deadline_at: null }, 4);
    expect(await calls.find({ user_id: 2, status: 'completed' })).toHaveLength(1);
    expect(await calls.count({ user_id: 1 })).toBe(0);
    expect(await calls.count({ status: 'initiated' })).toBe(0);
    expect(await calls.count({ deadline_at: { ne: null } })).toBe(0);
    await store.close();
  });

  it('moves a store written with expression indexes to indexed columns, filled from its documents', async () => {
    const file = join(dir, 'legacy.db');
    const legacy = new Database(file);
    legacy.exec(`CREATE TABLE rm_leads (id TEXT PRIMARY KEY, pos INTEGER NOT NULL, doc TEXT NOT NULL, view TEXT);
      CREATE INDEX rm_leads__campaign_id__id ON rm_leads (json_extract(doc, '$.campaign_id'), json_extract(doc, '$.id'));
      INSERT INTO rm_leads (id, pos, doc) VALUES ('1', 1, '{"id":1,"campaign_id":7,"active":true}'), ('2', 2, '{"id":2,"campaign_id":8,"active":false}');`);
    legacy.close();
    const store = new SqliteDocumentStore(file);
    const leads = store.collection<{ id: number }>('leads', { indexes: [{ fields: ['campaign_id', 'id'] }, { fields: ['active'] }] });
    expect((await leads.find({ campaign_id: 7 })).map((l) => l.id)).toEqual([1]);
    expect((await leads.find({ active: false })).map((l) => l.id)).toEqual([2]);
    const indexes = sqlOf(store, "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_leads' AND sql IS NOT NULL");
    expect(indexes).toHaveLength(2);
    expect(indexes.join()).not.toContain('json_extract');
    await store.close();
  });

  it('drops the column of a field no index names any more, and fills it afresh when one does again', async () => {
    const file = join(dir, 'redeclared.db');
    const first = new SqliteDocumentStore(file);
    await first.collection('tools', { indexes: [{ fields: ['user_id'] }] }).upsert(1, { id: 1, user_id: 1 }, 1);
    await first.close();
    const second = new SqliteDocumentStore(file);
    await second.collection('tools', { indexes: [{ fields: ['name'] }] }).upsert(1, { id: 1, user_id: 2, name: 'a' }, 2);
    expect(sqlOf(second, "SELECT name FROM pragma_table_info('rm_tools')")).not.toContain('doc.user_id');
    await second.close();
    const third = new SqliteDocumentStore(file);
    const tools = third.collection('tools', { indexes: [{ fields: ['user_id'] }] });
    expect(await tools.count({ user_id: 1 })).toBe(0);
    expect(await tools.count({ user_id: 2 })).toBe(1);
    await third.close();
  });

  it('refills a table made again with every index it had', async () => {
    const store = new SqliteDocumentStore(join(dir, 'refill.db'));
    const leads = store.collection('leads', { indexes: [{ fields: ['user_id', 'id'] }, { fields: ['campaign_id'], unique: true }] });
    const db = sqliteOf(store);
    const indexes = () =>
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_leads' AND sql IS NOT NULL ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
    const before = indexes();
    expect(before).toHaveLength(2);
    await leads.upsert(1, { id: 1, user_id: 1, campaign_id: 7 }, 1);
    await store.refill(['leads'], async () => {
      expect(indexes()).toEqual(before);
      expect(await leads.get(1)).toBeNull();
      await leads.upsert(2, { id: 2, user_id: 1, campaign_id: 7 }, 2);
    });
    expect(indexes()).toEqual(before);
    expect(await leads.count()).toBe(1);
    await store.close();
  });

  describe('statistics of a refilled table', () => {
    const statsOf = (store: SqliteDocumentStore) =>
      sqliteOf(store).prepare("SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'rm_leads' ORDER BY idx").all() as Array<{ idx: string; stat: string }>;
    const indexes = { indexes: [{ fields: ['campaign_id', 'id'] }, { fields: ['phone_number'] }] };
    const lead = (id: number) => ({ id, campaign_id: id % 4, phone_number: `+1212555${String(id).padStart(4, '0')}` });

    /** 200 rows with statistics of its own making (gathering them again would answer `200 50 1`), refilled with `count`. */
    const refilledWith = async (count: number) => {
      const file = join(dir, `stats-refill-${count}.db`);
      const store = new SqliteDocumentStore(file);
      const leads = store.collection('leads', indexes);
      for (let id = 1; id <= 200; id++) await leads.upsert(id, lead(id), id);
      sqliteOf(store).exec("ANALYZE rm_leads; UPDATE sqlite_stat1 SET stat = '200 40 1' WHERE idx = 'rm_leads__campaign_id__id'; ANALYZE sqlite_schema");
      const before = statsOf(store);
      await store.refill(['leads'], () =>
        store.exclusive('refill', async () => {
          for (let id = 1; id <= count; id++) await leads.upsert(id, lead(id), id);
        }),
      );
      const after = statsOf(store);
      await store.close();
      const reopened = new SqliteDocumentStore(file);
      reopened.collection('leads', indexes);
      const atNextOpen = statsOf(reopened);
      await reopened.close();
      return { before, after, atNextOpen };
    };

    it('given the same rows made again (a rebuild of the same events), then it keeps the statistics it had, and the next open gathers none', async () => {
      const { before, after, atNextOpen } = await refilledWith(200);
      expect(before).toHaveLength(3);
      expect(before).toContainEqual({ idx: 'rm_leads__campaign_id__id', stat: '200 40 1' });
      expect(after).toEqual(before);
      expect(atNextOpen).toEqual(before);
    });

    it('given a tenth fewer or more rows or beyond, then it has none, and the next open gathers them from the rows', async () => {
      for (const count of [179, 221]) {
        const { after, atNextOpen } = await refilledWith(count);
        expect(after).toEqual([]);
        expect(atNextOpen).toContainEqual({ idx: 'rm_leads__campaign_id__id', stat: `${count} ${Math.ceil(count / 4)} 1` });
      }
    });
  });

  it('refills through a writer thread: the file marked unsynced and locked to other processes meanwhile, in WAL, each batch seen by readers once committed', async () => {
    const file = join(dir, 'marked.db');
    const store = new SqliteDocumentStore(file);
    const leads = store.collection('leads', { indexes: [{ fields: ['campaign_id'] }], counts: [['campaign_id']] });
    const marker = unsyncedMarker(file);
    const during = await store.refill(['leads'], async () => {
      await store.exclusive('refill', () => leads.upsert(1, { id: 1, campaign_id: 7 }, 1));
      await store.exclusive('refill', () => leads.upsert(2, { id: 2, campaign_id: 7 }, 2));
      // Asked of the writer thread, after the batches handed to it.
      const counted = await leads.count({ campaign_id: 7 });
      return { counted, marker: countFromAnotherConnection(marker, 'sqlite_master'), others: countFromAnotherConnection(file, 'rm_leads') };
    });
    expect(during).toEqual({ counted: 2, marker: 'SQLITE_BUSY', others: 2 });
    expect(existsSync(marker)).toBe(false);
    expect(sqliteOf(store).pragma('journal_mode', { simple: true })).toBe('wal');
    expect(await leads.count({ campaign_id: 7 })).toBe(2);
    await store.close();
  });

  it('reads the documents and checkpoints of batches handed to the writer thread before it has committed them', async () => {
    const store = new SqliteDocumentStore(join(dir, 'handed.db'));
    const docs = store.collection<{ id: number; n: number }>('docs', { counts: [['n']] });
    const seen = await store.refill(['docs'], async () => {
      const checkpoints: number[] = [];
      for (let n = 1; n <= 30; n++) {
        await store.exclusive('refill', async () => {
          checkpoints.push(await store.getCheckpoint('docs'));
          const doc = await docs.get(1);
          await docs.upsert(1, { id: 1, n: (doc?.n ?? 0) + 1 }, n);
          await store.setCheckpoint('docs', n);
        });
      }
      return checkpoints;
    });
    expect(seen).toEqual([0, ...Array.from({ length: 29 }, (_, i) => i + 1)]);
    expect(await docs.get(1)).toEqual({ id: 1, n: 30 });
    expect(await docs.count({ n: 30 })).toBe(1);
    expect(await store.getCheckpoint('docs')).toBe(30);
    await store.close();
  });

  it('counts a mostly absent set through the writer thread during a refill, where this connection has not yet seen its batches', async () => {
    const store = new SqliteDocumentStore(join(dir, 'absent-refill.db'));
    const docs = store.collection<{ id: number; n: number }>('docs', { indexes: [{ fields: ['n'] }], mostlyAbsent: [['n']] });
    await docs.upsert(1, { id: 1, n: 1 }, 1);
    expect(await docs.count({ n: 2 })).toBe(0);
    const counted = await store.refill(['docs'], async () => {
      const counts: number[] = [];
      for (let n = 1; n <= 20; n++) {
        await store.exclusive('refill', async () => docs.upsert(n, { id: n, n }, n));
        counts.push(await docs.count({ n }));
      }
      return counts;
    });
    expect(counted).toEqual(Array(20).fill(1));
    expect(await docs.count({ n: 20 })).toBe(1);
    expect(await docs.count({ n: 21 })).toBe(0);
    await store.close();
  });

  it('reads from the file the documents of batches the writer thread has committed, and knows the keys it never wrote', async () => {
    const store = new SqliteDocumentStore(join(dir, 'committed.db'));
    const docs = store.collection<{ id: number | string; n: number }>('docs');
    const seen = await store.refill(['docs'], async () => {
      await store.exclusive('refill', async () => {
        await docs.upsert(1, { id: 1, n: 1 }, 1);
        await docs.upsert('tok', { id: 'tok', n: 1 }, 1);
      });
      // Asked of the thread, after the batch's commit: the batch is no longer held here.
      await docs.count();
      return store.exclusive('refill', async () => [await docs.get(1), await docs.get('tok'), await docs.get(2), await docs.get('other')]);
    });
    expect(seen.result).toEqual([{ id: 1, n: 1 }, { id: 'tok', n: 1 }, null, null]);
    await store.close();
  });

  it('fails a refill whose writer thread fails (a unique index refusing a document), and counts the collection from what was committed, now and at the next open', async () => {
    const file = join(dir, 'refused.db');
    const options = { indexes: [{ fields: ['campaign_id'], unique: true }], counts: [['campaign_id']] };
    const store = new SqliteDocumentStore(file);
    const leads = store.collection('leads', options);
    const refill = store.refill(['leads'], async () => {
      await store.exclusive('refill', () => leads.upsert(1, { id: 1, campaign_id: 7 }, 1));
      await store.exclusive('refill', () => leads.upsert(2, { id: 2, campaign_id: 7 }, 2));
      await store.exclusive('refill', () => leads.upsert(3, { id: 3, campaign_id: 8 }, 3));
    });
    await expect(refill).rejects.toThrow('UNIQUE constraint failed');
    expect(await leads.count({ campaign_id: 7 })).toBe(1);
    expect(existsSync(unsyncedMarker(file))).toBe(false);
    await store.close();
    const reopened = new SqliteDocumentStore(file);
    const again = reopened.collection('leads', options);
    expect([await again.count({ campaign_id: 7 }), await again.count({ campaign_id: 8 })]).toEqual([1, 0]);
    await reopened.close();
  });

  it('makes a store that a rebuild left unsynced (its process killed mid-way) again from nothing: documents, totals and checkpoints', async () => {
    const file = join(dir, 'unsynced.db');
    const first = new SqliteDocumentStore(file);
    await first.collection('leads', { counts: [['campaign_id']] }).upsert(1, { id: 1, campaign_id: 7 }, 1);
    await first.setCheckpoint('leads', 9);
    await first.close();
    const writer = writerInAnotherProcess(file, 'die');
    await new Promise((resolve) => writer.once('exit', resolve));

    const store = new SqliteDocumentStore(file);
    const leads = store.collection('leads', { counts: [['campaign_id']] });
    expect(await leads.count()).toBe(0);
    expect(await leads.count({ campaign_id: 7 })).toBe(0);
    expect(await store.getCheckpoint('leads')).toBe(0);
    await store.close();
  });

  it('makes missing views once, and again only after the collection was opened without its view', async () => {
    const file = join(dir, 'views.db');
    const view = (t: { id: number }) => ({ shown: t.id });
    const open = (withView: boolean) => {
      const store = new SqliteDocumentStore(file);
      return { store, tools: store.collection<{ id: number }>('tools', { view: withView ? view : undefined }) };
    };
    const views = () => sqlOf(first.store, 'SELECT view FROM rm_tools ORDER BY rowid');

    let first = open(false);
    await first.tools.upsert(1, { id: 1 }, 1);
    await first.store.close();
    first = open(true);
    expect(views()).toEqual(['{"shown":1}']);
    // A later open trusts the mark and does not read the table again.
    sqliteOf(first.store).exec('UPDATE rm_tools SET view = NULL');
    await first.store.close();
    first = open(true);
    expect(views()).toEqual([null]);
    await first.store.close();

    first = open(false);
    await first.tools.upsert(2, { id: 2 }, 2);
    await first.store.close();
    first = open(true);
    expect(views()).toEqual(['{"shown":1}', '{"shown":2}']);
    await first.store.close();
  });
});

describe('embedded SQLite documents created in a batch', () => {
  it('looks up no document whose integer key is above the largest stored, inside a batch only', async () => {
    const store = new SqliteDocumentStore(join(dir, 'largest.db'));
    const docs = store.collection<{ id: number }>('docs');
    await docs.upsert(1, { id: 1 }, 1);
    await store.exclusive('p', async () => expect(await docs.get(2)).toBeNull());
    // A row written under the store, on its own connection: only a lookup of the file finds it.
    sqliteOf(store).prepare(`INSERT INTO rm_docs (id, pos, doc) VALUES ('5', 9, '{"id":5}')`).run();
    await store.exclusive('p', async () => expect(await docs.get(5)).toBeNull());
    expect(await docs.get(5)).toEqual({ id: 5 });
    // Its own inserts raise the largest key: the next batch looks the document up.
    await docs.upsert(7, { id: 7 }, 10);
    await store.exclusive('p', async () => expect(await docs.get(7)).toEqual({ id: 7 }));
    await store.close();
  });

  it('sees another store’s documents in its next batch', async () => {
    const file = join(dir, 'largest-others.db');
    const [a, b] = [new SqliteDocumentStore(file), new SqliteDocumentStore(file)];
    const docs = (store: SqliteDocumentStore) => store.collection<{ id: number }>('docs');
    await docs(a).upsert(1, { id: 1 }, 1);
    await a.exclusive('p', async () => expect(await docs(a).get(9)).toBeNull());
    await docs(b).upsert(9, { id: 9 }, 2);
    await a.exclusive('p', async () => expect(await docs(a).get(9)).toEqual({ id: 9 }));
    await a.close();
    await b.close();
  });
});

describe('embedded SQLite across processes', () => {
  it('makes a batch again when another process committed after it read: its commit waits for the lock, then finds the count moved', async () => {
    const file = join(dir, 'shared.db');
    const store = new SqliteDocumentStore(file);
    // Another store's batch, as its writer thread makes it: the write lock held, the commit counted.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(file)});
         db.exec('BEGIN IMMEDIATE');
         db.prepare("INSERT INTO checkpoints (name, position) VALUES ('other', 7)").run();
         db.prepare(${JSON.stringify(COUNT_COMMIT)}).run();
         console.log('locked');
         setTimeout(() => { db.exec('COMMIT'); db.close(); }, 300);`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((r) => holder.once('exit', r));
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const seen: number[] = [];
    const outcome = await store.exclusive('projections', async () => {
      const other = await store.getCheckpoint('other');
      seen.push(other);
      await store.setCheckpoint('mine', other + 1);
      return other;
    });
    // Made first from the file before the other commit, then again after it.
    expect(seen).toEqual([0, 7]);
    expect(outcome).toEqual({ ran: true, result: 7 });
    expect(await store.getCheckpoint('mine')).toBe(8);
    await exited;
    await store.close();
  });
});

/** Every collection declared `cached`: the whole contract holds with documents kept in memory. */
class CachingSqliteStore extends SqliteDocumentStore {
  override collection<T extends object>(name: string, options: CollectionOptions<T> = {}) {
    return super.collection<T>(name, { ...options, cached: true });
  }
}
const cachingDir = mkdtempSync(join(tmpdir(), 'rs-cached-'));
afterAll(() => rmSync(cachingDir, { recursive: true, force: true }));
documentStoreContract('embedded SQLite, cached collections', { open: async () => new CachingSqliteStore(join(cachingDir, 'read.db')) });
atomicBatchContract('embedded SQLite, cached collections', { open: async () => new CachingSqliteStore(join(cachingDir, 'read.db')) });

describe('embedded SQLite cached collections', () => {
  interface Doc {
    id: number;
    v: number;
    tags: string[];
  }
  let clock = 0;
  const now = () => clock;
  const open = (file: string) => {
    const store = new SqliteDocumentStore(file, { now });
    return { store, docs: store.collection<Doc>('docs', { indexes: [{ fields: ['v'] }], counts: [['v']], cached: true }) };
  };

  it('answers frozen documents shared between readers', async () => {
    const { store, docs } = open(join(cachingDir, 'frozen.db'));
    await docs.upsert(1, { id: 1, v: 1, tags: ['a'] }, 1);
    const doc = (await docs.get(1))!;
    expect(await docs.get(1)).toBe(doc);
    expect(Object.isFrozen(doc) && Object.isFrozen(doc.tags)).toBe(true);
    expect(() => doc.tags.push('b')).toThrow(TypeError);
    await store.close();
  });

  it('forgets a document this store writes, in a batch or alone', async () => {
    const { store, docs } = open(join(cachingDir, 'own.db'));
    await docs.upsert(1, { id: 1, v: 1, tags: [] }, 1);
    expect((await docs.get(1))!.v).toBe(1);
    await store.exclusive('p', async () => docs.upsert(1, { id: 1, v: 2, tags: [] }, 2));
    expect((await docs.get(1))!.v).toBe(2);
    await docs.upsert(1, { id: 1, v: 3, tags: [] }, 3);
    expect((await docs.get(1))!.v).toBe(3);
    await docs.delete(1);
    expect(await docs.get(1)).toBeNull();
    await store.close();
  });

  it('forgets a collection emptied or refilled', async () => {
    const { store, docs } = open(join(cachingDir, 'emptied.db'));
    await docs.upsert(1, { id: 1, v: 1, tags: [] }, 1);
    expect((await docs.get(1))!.v).toBe(1);
    await store.clearCollection('docs');
    expect(await docs.get(1)).toBeNull();

    await docs.upsert(1, { id: 1, v: 2, tags: [] }, 2);
    expect((await docs.get(1))!.v).toBe(2);
    // Refilled from events that no longer make document 1.
    await store.refill(['docs'], async () => docs.upsert(2, { id: 2, v: 3, tags: [] }, 1));
    expect(await docs.get(1)).toBeNull();
    expect((await docs.get(2))!.v).toBe(3);
    await store.close();
  });

  it('sees another connection’s commits once it looks again, and at the start of every batch', async () => {
    const file = join(cachingDir, 'others.db');
    const a = open(file);
    const b = open(file);
    await b.docs.upsert(1, { id: 1, v: 1, tags: [] }, 1);
    expect((await a.docs.get(1))!.v).toBe(1);
    expect(await a.docs.get(2)).toBeNull();

    await b.docs.upsert(1, { id: 1, v: 2, tags: [] }, 2);
    await b.docs.upsert(2, { id: 2, v: 2, tags: [] }, 2);
    // A document found missing is read again: its creation elsewhere shows without a look.
    expect((await a.docs.get(2))!.v).toBe(2);
    // A batch looks when it begins, so what it decides from is what the file holds.
    await a.store.exclusive('p', async () => {
      const doc = (await a.docs.get(1))!;
      expect(doc.v).toBe(2);
      await a.docs.upsert(1, { ...doc, v: 3 }, 3);
    });
    expect(await a.docs.count({ v: 2 })).toBe(1);
    expect(await a.docs.count({ v: 3 })).toBe(1);

    // Outside batches it looks at most every OTHER_WRITERS_LOOK_MS.
    expect((await a.docs.get(2))!.v).toBe(2);
    await b.docs.upsert(2, { id: 2, v: 4, tags: [] }, 4);
    expect((await a.docs.get(2))!.v).toBe(2);
    clock += OTHER_WRITERS_LOOK_MS;
    expect((await a.docs.get(2))!.v).toBe(4);
    await a.store.close();
    await b.store.close();
  });
});

describe('embedded SQLite sets counted mostly to find nothing', () => {
  interface Lead {
    id: number;
    campaign_id: number;
    phone_number: string;
  }
  let clock = 0;
  const now = () => clock;
  const open = (file: string) => {
    const store = new SqliteDocumentStore(file, { now });
    const options = { indexes: [{ fields: ['campaign_id', 'phone_number', 'id'] }], mostlyAbsent: [['campaign_id', 'phone_number']] };
    return { store, leads: store.collection<Lead>('leads', options) };
  };

  it('answers the count of values no row holds without reading the file', async () => {
    const { store, leads } = open(join(cachingDir, 'absent.db'));
    await leads.upsert(1, { id: 1, campaign_id: 1, phone_number: '+12125550001' }, 1);
    expect(await leads.count({ campaign_id: 1, phone_number: '+12125550002' })).toBe(0);
    // Rows written under the store, on its own connection: only a count that reads the file sees them.
    const insert = sqliteOf(store).prepare(`INSERT INTO rm_leads (id, pos, doc, "doc.campaign_id", "doc.phone_number", "doc.id") VALUES (?, 9, '{}', ?, ?, ?)`);
    insert.run('2', 1, '+12125550002', 2);
    insert.run('3', 1, '+12125550001', 3);
    expect(await leads.count({ campaign_id: 1, phone_number: '+12125550002' })).toBe(0);
    expect(await leads.count({ campaign_id: 1, phone_number: '+12125550001' })).toBe(2);
    expect(await leads.count({ campaign_id: 1 })).toBe(3);
    await store.close();
  });

  it('sees another connection’s rows once it looks again, and at the start of every batch', async () => {
    const file = join(cachingDir, 'absent-others.db');
    const a = open(file);
    const b = open(file);
    const number = (n: number) => ({ campaign_id: 1, phone_number: `+1212555000${n}` });
    expect(await a.leads.count(number(1))).toBe(0);
    await b.leads.upsert(1, { id: 1, ...number(1) }, 1);
    clock += OTHER_WRITERS_LOOK_MS;
    expect(await a.leads.count(number(1))).toBe(1);

    await b.leads.upsert(2, { id: 2, ...number(2) }, 2);
    await a.store.exclusive('p', async () => expect(await a.leads.count(number(2))).toBe(1));
    await b.leads.upsert(3, { id: 3, ...number(3) }, 3);
    clock += OTHER_WRITERS_LOOK_MS;
    expect(await a.leads.count(number(3))).toBe(1);
    await a.store.close();
    await b.store.close();
  });
});
