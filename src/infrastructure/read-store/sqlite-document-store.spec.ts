import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { documentStoreContract } from '../../testing/contracts/document-store.contract';
import { atomicBatchContract, writeBesideBatch } from '../../testing/contracts/document-store-atomic.contract';
import { queryPlans, sqliteOf } from '../../testing/sqlite-query-plans';
import { SqliteDocumentStore } from './sqlite-document-store';
import { OtherWriterCommitted } from './sqlite-batch';
import { SqliteSnapshot } from './sqlite-snapshot';

const inUtf8Bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

const dir = mkdtempSync(join(tmpdir(), 'rs-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sqlOf = (store: SqliteDocumentStore, sql: string) => sqliteOf(store).prepare(sql).pluck().all() as string[];

documentStoreContract('embedded SQLite', { open: async () => new SqliteDocumentStore(join(dir, 'read.db')) });
atomicBatchContract('embedded SQLite', { open: async () => new SqliteDocumentStore(join(dir, 'read.db')) });
// Every count kept as a running total from its first: the totals are held to the same contract.
const counted = { open: async () => new SqliteDocumentStore(join(dir, 'counted.db'), { slowCountMs: 0 }) };
documentStoreContract('embedded SQLite, running totals', counted);
atomicBatchContract('embedded SQLite, running totals', counted);

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
    const indexes = () =>
      (
        sqliteOf(store)
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_leads' AND sql IS NOT NULL ORDER BY name")
          .all() as Array<{ name: string }>
      ).map((r) => r.name);
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

describe('embedded SQLite running totals', () => {
  it('keeps the totals of a count that was slow, and of no other', async () => {
    const store = new SqliteDocumentStore(join(dir, 'learned.db'), { slowCountMs: 0 });
    const calls = store.collection<{ id: number; status: string }>('calls', { indexes: [{ fields: ['status'] }] });
    await calls.upsert(1, { id: 1, status: 'queued' }, 1);
    expect(await calls.count({ status: 'queued' })).toBe(1);
    expect(await calls.count({ status: { ne: 'done' } })).toBe(1);
    expect(sqlOf(store, "SELECT sets FROM running_count_sets WHERE collection = 'calls'")).toEqual(['[["status"]]']);
    expect(sqlOf(store, "SELECT key || '=' || n FROM running_counts WHERE collection = 'calls'")).toEqual(['status|["queued"]=1']);
    await store.close();
    const patient = new SqliteDocumentStore(join(dir, 'unlearned.db'), { slowCountMs: 60_000 });
    const fast = patient.collection<{ id: number; status: string }>('calls', { indexes: [{ fields: ['status'] }] });
    await fast.upsert(1, { id: 1, status: 'queued' }, 1);
    expect(await fast.count({ status: 'queued' })).toBe(1);
    expect(sqlOf(patient, 'SELECT sets FROM running_count_sets')).toEqual([]);
    await patient.close();
  });

  it('learns totals from the columns an index holds, not from each document, keyed as a filter compares', async () => {
    const store = new SqliteDocumentStore(join(dir, 'learned-from-index.db'), { slowCountMs: 0 });
    type Lead = { id: number; deleted: boolean; status: string };
    const leads = store.collection<Lead>('leads', { indexes: [{ fields: ['deleted', 'status', 'id'] }] });
    for (let id = 1; id <= 5; id++) await leads.upsert(id, { id, deleted: id === 5, status: id % 2 ? 'created' : 'completed' }, id);
    const { plans, result } = await queryPlans(store, () => leads.count({ deleted: false, status: 'created' }));
    expect(result).toBe(2);
    // The fill scans the index alone; read from the documents' JSON it took seconds over a million.
    expect(plans.some((plan) => /^SCAN rm_leads USING COVERING INDEX rm_leads__deleted__status__id/.test(plan))).toBe(true);
    expect(sqlOf(store, "SELECT key || '=' || n FROM running_counts WHERE collection = 'leads' ORDER BY key")).toEqual([
      'deleted,status|[0,"completed"]=2',
      'deleted,status|[0,"created"]=2',
      'deleted,status|[1,"created"]=1',
    ]);
    await leads.upsert(4, { id: 4, deleted: false, status: 'created' }, 6);
    expect(await leads.count({ deleted: false, status: 'created' })).toBe(3);
    expect(await leads.count({ deleted: true, status: 'created' })).toBe(1);
    await store.close();
  });

  it('forgets totals kept in the tables before these, and learns them again', async () => {
    const file = join(dir, 'old-totals.db');
    const old = new Database(file);
    old.exec(`CREATE TABLE counts (collection TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (collection, key)) WITHOUT ROWID;
      CREATE TABLE counted_sets (collection TEXT PRIMARY KEY, sets TEXT NOT NULL);
      INSERT INTO counts VALUES ('docs', 'v|[1]', 99);
      INSERT INTO counted_sets VALUES ('docs', '[["v"]]');`);
    old.close();
    const store = new SqliteDocumentStore(file, { slowCountMs: 0 });
    const docs = store.collection<{ id: number; v: number }>('docs');
    await docs.upsert(1, { id: 1, v: 1 }, 1);
    expect(await docs.count({ v: 1 })).toBe(1);
    expect(sqlOf(store, "SELECT name FROM sqlite_master WHERE name IN ('counts', 'counted_sets')")).toEqual([]);
    expect(sqlOf(store, "SELECT key || '=' || n FROM running_counts")).toEqual(['v|[1]=1']);
    await store.close();
  });

  it('moves the totals it learned itself from its next batch on', async () => {
    const store = new SqliteDocumentStore(join(dir, 'learned-here.db'), { slowCountMs: 0 });
    const docs = store.collection<{ id: number; v: number }>('docs');
    await docs.upsert(1, { id: 1, v: 1 }, 1);
    expect(await docs.count({ v: 1 })).toBe(1);
    await docs.upsert(2, { id: 2, v: 1 }, 2);
    expect(await docs.count({ v: 1 })).toBe(2);
    await store.close();
  });

  it('moves the totals another connection learned, from its next batch on', async () => {
    const file = join(dir, 'learned-elsewhere.db');
    const [a, b] = [new SqliteDocumentStore(file), new SqliteDocumentStore(file, { slowCountMs: 0 })];
    const docs = (store: SqliteDocumentStore) => store.collection<{ id: number; v: number }>('docs');
    await docs(a).upsert(1, { id: 1, v: 1 }, 1);
    expect(await docs(b).count({ v: 1 })).toBe(1);
    await docs(a).upsert(2, { id: 2, v: 1 }, 2);
    await docs(a).upsert(1, { id: 1, v: 2 }, 3);
    expect(await docs(b).count({ v: 1 })).toBe(1);
    expect(await docs(b).count({ v: 2 })).toBe(1);
    await a.close();
    await b.close();
  });

  it('counts from the totals another connection learned once it committed them, though it asked before', async () => {
    const file = join(dir, 'learned-later.db');
    const [a, b] = [new SqliteDocumentStore(file, { slowCountMs: 60_000 }), new SqliteDocumentStore(file, { slowCountMs: 0 })];
    const docs = (store: SqliteDocumentStore) => store.collection<{ id: number; v: number }>('docs');
    await docs(a).upsert(1, { id: 1, v: 1 }, 1);
    expect(await docs(a).count({ v: 1 })).toBe(1);
    expect(await docs(b).count({ v: 1 })).toBe(1);
    // A total only the kept one can answer: `a` reads it instead of counting the documents.
    const other = new Database(file);
    other.prepare(`UPDATE running_counts SET n = 7 WHERE collection = 'docs'`).run();
    other.close();
    expect(await docs(a).count({ v: 1 })).toBe(7);
    await a.close();
    await b.close();
  });
});

describe('embedded SQLite across processes', () => {
  it("answers checkpoints as committed: its own at once, another connection's once that one committed", async () => {
    const file = join(dir, 'checkpoints.db');
    const [a, b] = [new SqliteDocumentStore(file), new SqliteDocumentStore(file)];
    expect(await a.getCheckpoint('p')).toBe(0);
    await b.setCheckpoint('p', 5);
    expect(await a.getCheckpoint('p')).toBe(5);
    await a.setCheckpoint('p', 7);
    expect([await a.getCheckpoint('p'), await b.getCheckpoint('p')]).toEqual([7, 7]);
    await a.resetCheckpoint('p', 2);
    expect([await a.getCheckpoint('p'), await b.getCheckpoint('p')]).toEqual([2, 2]);
    // A write no batch made, by another connection, is seen too.
    const other = new Database(file);
    other.prepare(`UPDATE checkpoints SET position = 9 WHERE name = 'p'`).run();
    other.close();
    expect(await a.getCheckpoint('p')).toBe(9);
    await a.close();
    await b.close();
  });

  it('keeps a write made outside a batch while the batch is made again after another connection committed', async () => {
    const store = new SqliteDocumentStore(join(dir, 'again.db'));
    const c = store.collection<{ v: number }>('again');
    let runs = 0;
    await writeBesideBatch(store, c, async (paused) => {
      runs++;
      await c.upsert('inside', { v: runs }, 1);
      if (runs > 1) return;
      await paused;
      throw new OtherWriterCommitted();
    });
    expect(runs).toBe(2);
    expect(await store.getCheckpoint('outside')).toBe(7);
    expect(await c.get('outside')).toEqual({ v: 1 });
    expect(await c.get('inside')).toEqual({ v: 2 });
    await store.close();
  });

  it('keeps indexed columns right when another connection changed a row the batch read and means to update', async () => {
    const file = join(dir, 'raced-update.db');
    const indexes = { indexes: [{ fields: ['v'] }, { fields: ['w'] }] };
    const [a, b] = [new SqliteDocumentStore(file), new SqliteDocumentStore(file)];
    const docs = (store: SqliteDocumentStore) => store.collection<{ v: number; w: number }>('raced', indexes);
    await docs(a).upsert(1, { v: 1, w: 1 }, 1);
    let runs = 0;
    await a.exclusive('projections', async () => {
      const read = (await docs(a).get(1))!;
      // The other connection moves `v` after this batch read it: set back to what was read, `v`
      // has not moved for this batch, but it has in the file.
      if (++runs === 1) await docs(b).upsert(1, { v: 2, w: 1 }, 2);
      await docs(a).upsert(1, { v: 1, w: read.w + 2 }, 3);
    });
    expect(runs).toBe(2);
    for (const store of [a, b]) {
      expect(await docs(store).find({ v: 1 })).toEqual([{ v: 1, w: 3 }]);
      expect(await docs(store).find({ v: 2 })).toEqual([]);
      expect(await docs(store).find({ w: 3 })).toEqual([{ v: 1, w: 3 }]);
    }
    await a.close();
    await b.close();
  });

  it('makes a batch again when another process committed after it read', async () => {
    const file = join(dir, 'shared.db');
    const store = new SqliteDocumentStore(file);
    const seen: number[] = [];
    const outcome = await store.exclusive('projections', async () => {
      const other = await store.getCheckpoint('other');
      seen.push(other);
      if (seen.length === 1) {
        const writer = spawn(process.execPath, [
          '-e',
          `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(file)});
           db.prepare("INSERT INTO checkpoints (name, position) VALUES ('other', 7)").run(); db.close();`,
        ]);
        await new Promise((resolve) => writer.once('exit', resolve));
      }
      await store.setCheckpoint('mine', other + 1);
      return other;
    });
    expect(seen).toEqual([0, 7]);
    expect(outcome).toEqual({ ran: true, result: 7 });
    expect(await store.getCheckpoint('mine')).toBe(8);
    await store.close();
  });
});

describe('embedded SQLite snapshots', () => {
  it('lets other work run between the pages of a large read (its reads are synchronous)', async () => {
    const store = new SqliteDocumentStore(join(dir, 'snapshot.db'));
    const docs = store.collection<{ id: number; n: number }>('docs');
    for (let id = 1; id <= 25; id++) await docs.upsert(id, { id, n: id }, id);
    const snapshot = await docs.snapshot({});
    const order: string[] = [];
    setImmediate(() => order.push('other work'));
    for await (const page of snapshot.pages(10)) order.push(`page of ${page.length}`);
    await snapshot.close();
    expect(order).toEqual(['page of 10', 'other work', 'page of 10', 'page of 5']);
    await store.close();
  });

  it("lists an object field's keys a slice of documents at a time, other work let in between, ids numbers or text", async () => {
    const store = new SqliteDocumentStore(join(dir, 'snapshot-keys.db'));
    const numbered = store.collection<{ id: number; kind: string; variables: Record<string, number> }>('numbered', { indexes: [{ fields: ['kind', 'id'] }] });
    for (let id = 1; id <= 23; id++)
      await numbered.upsert(id, { id, kind: id === 12 ? 'other' : 'lead', variables: { [`k${id % 7}`]: id, ...(id === 12 ? { hidden: 1 } : {}) } }, id);
    const named = store.collection<{ id: string; variables: Record<string, number> }>('named');
    for (const [i, id] of [...'abcdefghijkl'].entries()) await named.upsert(id, { id, variables: { [`v${i}`]: i, é: i, '😀': i, '\uffff': i } }, i + 1);
    const order: string[] = [];
    const snapshot = (await numbered.snapshot({ kind: 'lead' })) as SqliteSnapshot<unknown>;
    setImmediate(() => order.push('other work'));
    const keys = snapshot.keysOf('variables', 5).then((found) => order.push(found.join(' ')));
    await keys;
    await snapshot.close();
    expect(order).toEqual(['other work', 'k0 k1 k2 k3 k4 k5 k6']);
    const text = (await named.snapshot({})) as SqliteSnapshot<unknown>;
    // In SQLite's order, the UTF-8 bytes': U+FFFF before the emoji, where JavaScript's sort puts it after.
    expect(await text.keysOf('variables', 5)).toEqual(
      [...Array.from({ length: 10 }, (_, i) => `v${i}`).sort(), 'v10', 'v11', 'é', '\uffff', '😀'].sort(inUtf8Bytes),
    );
    expect((await text.keysOf('variables', 5)).slice(-2)).toEqual(['\uffff', '😀']);
    await text.close();
    await store.close();
  });
});
