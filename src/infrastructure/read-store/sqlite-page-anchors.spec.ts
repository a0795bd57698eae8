import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { SqliteDocumentStore } from './sqlite-document-store';

interface Item {
  id: number;
  status: string;
  rank: number | null;
}

const dir = mkdtempSync(join(tmpdir(), 'rs-anchors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => jest.restoreAllMocks());

let files = 0;
const indexes = [{ fields: ['status', 'id'] }, { fields: ['id'] }, { fields: ['rank'] }];
function open(file = join(dir, `anchors-${++files}.db`)) {
  const store = new SqliteDocumentStore(file);
  return { file, store, items: store.collection<Item>('items', { indexes }) };
}

type Write = { kind: 'put'; id: number; status: string; other: boolean } | { kind: 'delete'; id: number } | { kind: 'none' };
/** A few pages of one list in a row, as a client walks a list or asks a page again. */
type Read = { status?: string; descending: boolean; first: number; count: number; perPage: number };

const idArb = fc.integer({ min: 1, max: 60 });
const writeArb: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), id: idArb, status: fc.constantFrom('a', 'b'), other: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), id: idArb }),
  fc.record({ kind: fc.constant('none' as const) }),
);
const readArb: fc.Arbitrary<Read> = fc.record({
  status: fc.option(fc.constant('a'), { nil: undefined }),
  descending: fc.boolean(),
  first: fc.integer({ min: 1, max: 8 }),
  count: fc.integer({ min: 1, max: 3 }),
  perPage: fc.constantFrom(2, 3),
});

describe('deep pages from anchors (embedded SQLite)', () => {
  it('answers every page as OFFSET would, while this store and another connection write between the reads', async () => {
    const steps = fc.array(fc.tuple(writeArb, readArb), { minLength: 1, maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(idArb, { minLength: 20, maxLength: 50 }), steps, async (seed, steps) => {
        const { file, store, items } = open();
        const other = open(file);
        const model = new Map<number, Item>();
        let position = 0;
        try {
          for (const id of seed) {
            model.set(id, { id, status: id % 2 ? 'a' : 'b', rank: null });
            await items.upsert(id, model.get(id)!, ++position);
          }
          for (const [write, read] of steps) {
            if (write.kind === 'put') {
              model.set(write.id, { id: write.id, status: write.status, rank: null });
              await (write.other ? other.items : items).upsert(write.id, model.get(write.id)!, ++position);
            } else if (write.kind === 'delete') {
              model.delete(write.id);
              await items.delete(write.id, ++position);
            }
            const list = [...model.values()]
              .filter((item) => read.status === undefined || item.status === read.status)
              .sort((x, y) => (read.descending ? y.id - x.id : x.id - y.id));
            for (let page = read.first; page < read.first + read.count; page++) {
              const skip = (page - 1) * read.perPage;
              const found = await items.find({ status: read.status }, { sort: [['id', read.descending ? 'desc' : 'asc']], skip, limit: read.perPage });
              expect(found).toEqual(list.slice(skip, skip + read.perPage));
            }
          }
        } finally {
          await store.close();
          await other.store.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('seeks a page asked again, and the next page of a walk, from an anchor; a write forgets the anchors', async () => {
    const ran = recordReads();
    const { store, items } = open();
    await store.exclusive('', async () => {
      for (let id = 1; id <= 1000; id++) await items.upsert(id, { id, status: 'a', rank: null }, id);
    });
    const page = async (n: number) => {
      ran.length = 0;
      const result = await items.find({ status: 'a' }, { sort: [['id', 'asc']], skip: (n - 1) * 10, limit: 10 });
      expect(result.map((item) => item.id)).toEqual(Array.from({ length: 10 }, (_, i) => (n - 1) * 10 + i + 1));
      const [read] = ran.filter(({ sql }) => sql.includes('ORDER BY'));
      return { sought: read.sql.includes('>= ?'), offset: read.args[read.args.length - 1] };
    };
    // Read first, page 90 walks past the 888 rows before the two read ahead of it.
    expect(await page(90)).toEqual({ sought: false, offset: 888 });
    expect(await page(90)).toEqual({ sought: true, offset: 0 });
    expect(await page(91)).toEqual({ sought: true, offset: 0 });
    expect(await page(93)).toEqual({ sought: true, offset: 9 });
    await items.upsert(5, { id: 5, status: 'a', rank: 1 }, 2000);
    expect(await page(90)).toEqual({ sought: false, offset: 888 });
    await store.close();
  });

  it('reads a page again without its anchor when another connection commits between the check and the read', async () => {
    const { file, store, items } = open();
    await store.exclusive('', async () => {
      for (let id = 2; id <= 2000; id += 2) await items.upsert(id, { id, status: 'a', rank: null }, id);
    });
    const page90 = () => items.find({}, { sort: [['id', 'asc']], skip: 890, limit: 10 });
    expect((await page90()).map((item) => item.id)).toEqual(Array.from({ length: 10 }, (_, i) => 1782 + 2 * i));
    // Just before the seek runs, another connection stores a row ahead of every other.
    const other = new Database(file);
    const prepare = Database.prototype.prepare;
    jest.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, sql: string) {
      const statement = prepare.call(this, sql);
      if (this === other || !sql.includes('>= ?')) return statement;
      const all = statement.all.bind(statement) as (...args: unknown[]) => unknown[];
      return Object.assign(statement, {
        all: (...args: unknown[]) => {
          other
            .prepare('INSERT INTO rm_items (id, pos, doc, "doc.status", "doc.id") VALUES (?, ?, ?, ?, ?)')
            .run('1', 3000, JSON.stringify({ id: 1, status: 'a', rank: null }), 'a', 1);
          return all(...args);
        },
      });
    } as typeof prepare);
    expect((await page90()).map((item) => item.id)).toEqual(Array.from({ length: 10 }, (_, i) => 1780 + 2 * i));
    other.close();
    await store.close();
  });

  it('walks a list sorted on a key many rows share, each row once, in the order of the whole list', async () => {
    const { file, store, items } = open();
    for (let id = 1; id <= 40; id++) await items.upsert(id, { id, status: 'a', rank: id % 4 }, id);
    const raw = new Database(file, { readonly: true });
    for (const direction of ['asc', 'desc'] as const) {
      const whole = raw.prepare(`SELECT json_extract(doc, '$.id') FROM rm_items ORDER BY "doc.rank" ${direction}`).pluck().all();
      for (let walk = 0; walk < 2; walk++) {
        const ids: number[] = [];
        for (let skip = 0; skip < 40; skip += 3) ids.push(...(await items.find({}, { sort: [['rank', direction]], skip, limit: 3 })).map((item) => item.id));
        expect(ids).toEqual(whole);
      }
    }
    raw.close();
    await store.close();
  });

  it('reads a descending page that reaches the rows without a key as OFFSET does', async () => {
    const { store, items } = open();
    for (let id = 1; id <= 10; id++) await items.upsert(id, { id, status: 'a', rank: id === 3 ? null : id }, id);
    const page = (n: number) => items.find({}, { sort: [['rank', 'desc']], skip: (n - 1) * 3, limit: 3 });
    const walk = async () => [await page(2), await page(3), await page(4), await page(4)].map((items) => items.map((item) => item.id));
    expect(await walk()).toEqual([[7, 6, 5], [4, 2, 1], [3], [3]]);
    await store.close();
  });
});

/** Every statement run from here on, with its arguments: statements are prepared once and kept, so each is wrapped when prepared. */
function recordReads(): Array<{ sql: string; args: unknown[] }> {
  const ran: Array<{ sql: string; args: unknown[] }> = [];
  const prepare = Database.prototype.prepare;
  jest.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, sql: string) {
    const statement = prepare.call(this, sql);
    const all = statement.all.bind(statement) as (...args: unknown[]) => unknown[];
    return Object.assign(statement, { all: (...args: unknown[]) => (ran.push({ sql, args }), all(...args)) });
  } as typeof prepare);
  return ran;
}
