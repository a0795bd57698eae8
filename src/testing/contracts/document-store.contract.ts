import { randomUUID } from 'node:crypto';
import { DocumentStore } from '../../shared/ports/document-store.port';
import { batchCases } from './document-store-batches.contract';
import { Person, people } from './document-store-people.contract';

export interface DocumentStoreHarness {
  /** Opens the store; calling it again opens the same storage anew (a restart). */
  open(): Promise<DocumentStore>;
  cleanup?(): Promise<void>;
}

/** The behaviour every read-model store adapter must share. */
export function documentStoreContract(name: string, harness: DocumentStoreHarness) {
  describe(`${name} document store contract`, () => {
    let store: DocumentStore;
    let coll: string;
    const opened: DocumentStore[] = [];
    const open = async () => {
      const s = await harness.open();
      opened.push(s);
      return s;
    };
    const seeded = async () => {
      const c = store.collection<Person>(coll, { indexes: [{ fields: ['team.id', 'id'] }, { fields: ['active', 'age'] }] });
      for (const p of people) await c.upsert(p.id, p, p.id);
      return c;
    };

    beforeEach(async () => {
      store = await open();
      coll = `c${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    });
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close().catch(() => undefined);
    });
    afterAll(async () => harness.cleanup?.());

    describe('upsert with a position guard', () => {
      it('stores and gets a document by id, numeric or string', async () => {
        const c = store.collection<{ id: string; v: number }>(coll);
        expect(await c.upsert('a', { id: 'a', v: 1 }, 10)).toBe(true);
        expect(await c.get('a')).toEqual({ id: 'a', v: 1 });
        expect(await c.get('missing')).toBeNull();
        await c.upsert(7, { id: '7', v: 2 }, 11);
        expect(await c.get(7)).toEqual({ id: '7', v: 2 });
      });

      it('gets several documents by their ids, leaving out ids with none', async () => {
        const c = store.collection<{ id: number; v: number }>(coll);
        for (const id of [1, 2, 3]) await c.upsert(id, { id, v: id * 10 }, id);
        const got = await c.getMany([3, 1, 9, 1]);
        expect(got.sort((a, b) => a.id - b.id)).toEqual([
          { id: 1, v: 10 },
          { id: 3, v: 30 },
        ]);
        expect(await c.getMany([])).toEqual([]);
      });

      it('replaces a document only from a later position', async () => {
        const c = store.collection<{ v: number }>(coll);
        await c.upsert(1, { v: 1 }, 10);
        expect(await c.upsert(1, { v: 2 }, 10)).toBe(false);
        expect(await c.upsert(1, { v: 3 }, 9)).toBe(false);
        expect(await c.get(1)).toEqual({ v: 1 });
        expect(await c.upsert(1, { v: 4 }, 11)).toBe(true);
        expect(await c.get(1)).toEqual({ v: 4 });
      });

      it('finds a replaced document by the indexed fields it changed, and no longer by those it left', async () => {
        const c = store.collection<{ status: string | null; kind: string; note: string }>(coll, {
          indexes: [{ fields: ['status'] }, { fields: ['kind', 'status'] }],
        });
        await c.upsert(1, { status: 'ringing', kind: 'outbound', note: 'a' }, 10);
        await c.upsert(2, { status: 'ringing', kind: 'outbound', note: 'b' }, 11);
        await c.upsert(1, { status: 'ringing', kind: 'outbound', note: 'a again' }, 12);
        await c.upsert(2, { status: 'ended', kind: 'outbound', note: 'b' }, 13);
        await c.upsert(1, { status: null, kind: 'inbound', note: 'a' }, 14);
        expect(await c.find({ status: 'ringing' })).toEqual([]);
        expect(await c.find({ status: 'ended' })).toEqual([{ status: 'ended', kind: 'outbound', note: 'b' }]);
        expect(await c.find({ kind: 'outbound', status: 'ended' })).toHaveLength(1);
        expect(await c.find({ kind: 'inbound', status: null })).toEqual([{ status: null, kind: 'inbound', note: 'a' }]);
        expect(await c.find({ kind: 'outbound' })).toHaveLength(1);
        expect(Object.fromEntries(await c.countBy('kind'))).toEqual({ inbound: 1, outbound: 1 });
        expect(await c.upsert(1, { status: 'late', kind: 'late', note: 'late' }, 14)).toBe(false);
        expect(await c.find({ kind: 'late' })).toEqual([]);
      });

      it('deletes', async () => {
        const c = store.collection<{ v: number }>(coll);
        await c.upsert(1, { v: 1 }, 1);
        expect(await c.delete(1, 2)).toBe(true);
        expect(await c.delete(1, 3)).toBe(false);
        expect(await c.get(1)).toBeNull();
      });

      it('remembers a deletion: an upsert from before it cannot bring the document back, a later one can', async () => {
        const c = store.collection<{ v: number }>(coll);
        await c.upsert(1, { v: 1 }, 10);
        expect(await c.delete(1, 9)).toBe(false);
        expect(await c.get(1)).toEqual({ v: 1 });
        expect(await c.delete(1, 12)).toBe(true);
        // Another instance applying the same events late, in order: its upserts are refused.
        expect(await c.upsert(1, { v: 1 }, 10)).toBe(false);
        expect(await c.upsert(1, { v: 2 }, 12)).toBe(false);
        expect(await c.get(1)).toBeNull();
        expect(await c.count()).toBe(0);
        expect(await (await open()).collection<{ v: number }>(coll).upsert(1, { v: 3 }, 11)).toBe(false);
        expect(await c.upsert(1, { v: 4 }, 13)).toBe(true);
        expect(await c.get(1)).toEqual({ v: 4 });
        expect(await (await open()).collection<{ v: number }>(coll).get(1)).toEqual({ v: 4 });
      });
    });

    describe('add, for entries written once', () => {
      it('stores an entry unless its id holds one, or held one since deleted', async () => {
        const c = store.collection<{ v: number }>(coll, { indexes: [{ fields: ['v'] }] });
        await c.add(1, { v: 1 }, 10);
        await c.add(1, { v: 2 }, 11);
        await c.upsert(2, { v: 2 }, 12);
        await c.add(2, { v: 3 }, 13);
        await c.upsert(3, { v: 3 }, 14);
        await c.delete(3, 15);
        await c.add(3, { v: 4 }, 16);
        expect(await c.get(1)).toEqual({ v: 1 });
        expect(await c.get(2)).toEqual({ v: 2 });
        expect(await c.get(3)).toBeNull();
        expect(await c.count()).toBe(2);
        expect(await c.count({ v: 1 })).toBe(1);
        expect((await c.find({}, { sort: [['v', 'asc']] })).map((d) => d.v)).toEqual([1, 2]);
        expect(await (await open()).collection<{ v: number }>(coll).get(1)).toEqual({ v: 1 });
      });

      it('answers within a batch what the batch added, or what the id held before it', async () => {
        const c = store.collection<{ v: number }>(coll);
        await c.upsert(1, { v: 1 }, 10);
        const seen = await store.exclusive(`lock-${coll}`, async () => {
          await c.add(1, { v: 2 }, 11);
          await c.add(2, { v: 3 }, 12);
          return [await c.get(1), await c.get(2)];
        });
        expect(seen).toEqual({ ran: true, result: [{ v: 1 }, { v: 3 }] });
        expect(await c.get(1)).toEqual({ v: 1 });
        expect(await c.get(2)).toEqual({ v: 3 });
        expect(await c.count()).toBe(2);
      });
    });

    describe('find and count', () => {
      const ids = (list: Person[]) => list.map((p) => p.id);

      it('filters on equality, nested fields, booleans and null', async () => {
        const c = await seeded();
        expect(ids(await c.find({ 'team.id': 2 }, { sort: [['id', 'asc']] }))).toEqual([3, 4]);
        expect(ids(await c.find({ active: false }, { sort: [['id', 'asc']] }))).toEqual([2, 5]);
        expect(ids(await c.find({ age: null }))).toEqual([3]);
        expect(ids(await c.find({ name: 'eve', active: false }))).toEqual([5]);
        expect(await c.find({ name: 'nobody' })).toEqual([]);
        expect(ids(await c.find({ name: undefined }, { sort: [['id', 'asc']] }))).toEqual([1, 2, 3, 4, 5]);
      });

      it('filters on ranges, inclusive and exclusive, on numbers and strings', async () => {
        const c = await seeded();
        const sort = { sort: [['id', 'asc']] as Array<[string, 'asc']> };
        expect(ids(await c.find({ age: { gte: 25, lt: 40 } }, sort))).toEqual([1, 2, 5]);
        expect(ids(await c.find({ age: { gt: 25, lte: 40 } }, sort))).toEqual([1, 4]);
        expect(ids(await c.find({ joined: { gte: '2025-01-03 00:00:00', lte: '2025-01-03 23:59:59' } }, sort))).toEqual([3, 4]);
        expect(ids(await c.find({ 'team.id': { in: [1, 3] } }, sort))).toEqual([1, 2, 5]);
        expect(ids(await c.find({ 'team.id': { in: [] } }, sort))).toEqual([]);
        expect(ids(await c.find({ name: { ne: 'ann' } }, sort))).toEqual([2, 3, 4, 5]);
      });

      it('answers no document for a limit of 0, and every one without a limit', async () => {
        const c = await seeded();
        expect(await c.find({}, { limit: 0 })).toEqual([]);
        expect(await c.find({}, { skip: 2 })).toHaveLength(people.length - 2);
      });

      it('sorts on several keys both ways and pages with skip and limit', async () => {
        const c = await seeded();
        expect(
          ids(
            await c.find(
              {},
              {
                sort: [
                  ['team.id', 'desc'],
                  ['id', 'asc'],
                ],
              },
            ),
          ),
        ).toEqual([5, 3, 4, 1, 2]);
        expect(ids(await c.find({}, { sort: [['id', 'desc']], skip: 1, limit: 2 }))).toEqual([4, 3]);
        expect(ids(await c.find({}, { sort: [['id', 'asc']], skip: 4, limit: 10 }))).toEqual([5]);
        expect(ids(await c.find({}, { sort: [['id', 'asc']], skip: 5, limit: 10 }))).toEqual([]);
        expect(ids(await c.find({}, { sort: [['id', 'asc']], limit: 0 }))).toEqual([]);
      });

      it('counts what a filter matches', async () => {
        const c = await seeded();
        expect(await c.count()).toBe(5);
        expect(await c.count({ active: true })).toBe(3);
        expect(await c.count({ age: { gte: 30 }, active: true })).toBe(2);
      });

      it('counts what a filter matches for each value of a field, leaving out documents without one', async () => {
        const c = await seeded();
        expect(await c.countBy('team.id')).toEqual(
          new Map([
            [1, 2],
            [2, 2],
            [3, 1],
          ]),
        );
        expect(await c.countBy('age', { active: true })).toEqual(
          new Map([
            [31, 1],
            [40, 1],
          ]),
        );
        expect(await c.countBy('name', { 'team.id': { in: [1, 3] }, age: 25 })).toEqual(
          new Map([
            ['bob', 1],
            ['eve', 1],
          ]),
        );
        expect(await c.countBy('age', { name: 'nobody' })).toEqual(new Map());
      });

      it('answers the views of what find answers, as JSON text, following every change', async () => {
        const view = (p: Person) => ({ id: p.id, label: `${p.name} (${p.team.id})` });
        const c = store.collection<Person>(coll, { indexes: [{ fields: ['team.id', 'id'] }], view });
        for (const p of people) await c.upsert(p.id, p, p.id);
        const options = { sort: [['id', 'desc']] as Array<[string, 'desc']>, skip: 1, limit: 2 };
        const views = await c.findViews({ active: true }, options);
        expect(views.map((v) => JSON.parse(v))).toEqual((await c.find({ active: true }, options)).map(view));
        expect(views.map((v) => JSON.parse(v))).toEqual([
          { id: 3, label: 'cid (2)' },
          { id: 1, label: 'ann (1)' },
        ]);

        await c.upsert(3, { ...people[2], name: 'cyd' }, 100);
        await store.exclusive('views', async () => c.upsert(1, { ...people[0], team: { id: 9 } }, 101));
        await c.delete(4, 102);
        expect((await c.findViews({ active: true }, { sort: [['id', 'asc']] })).map((v) => JSON.parse(v))).toEqual([
          { id: 1, label: 'ann (9)' },
          { id: 3, label: 'cyd (2)' },
        ]);
        await expect(store.collection(`${coll}_plain`).findViews()).rejects.toThrow('has no view');
      });

      it('makes the views of documents stored before the collection had one', async () => {
        const before = store.collection<Person>(coll);
        for (const p of people) await before.upsert(p.id, p, p.id);
        await store.close();
        store = await open();
        const c = store.collection<Person>(coll, { view: (p) => ({ name: p.name }) });
        expect((await c.findViews({ 'team.id': 1 }, { sort: [['id', 'asc']] })).map((v) => JSON.parse(v))).toEqual([{ name: 'ann' }, { name: 'bob' }]);
      });

      it('refuses field names that are not plain identifiers', async () => {
        const c = store.collection(coll);
        await expect(c.find({ "x') OR 1=1 --": 1 })).rejects.toThrow('Invalid field name');
      });
    });

    describe('snapshots', () => {
      it('reads a filter newest id first, a page at a time, as it stood when taken, whatever is written meanwhile', async () => {
        const c = await seeded();
        const snapshot = await c.snapshot({ active: true });
        try {
          await c.upsert(6, { ...people[0], id: 6, name: 'fay' }, 6);
          await c.upsert(4, { ...people[3], name: 'changed' }, 7);
          await c.delete(1, 8);
          const pages: string[][] = [];
          for await (const page of snapshot.pages(2)) pages.push(page.map((p) => p.name));
          expect(pages).toEqual([['dee', 'cid'], ['ann']]);
        } finally {
          await snapshot.close();
        }
        expect((await c.find({ active: true }, { sort: [['id', 'desc']] })).map((p) => p.name)).toEqual(['fay', 'changed', 'cid']);
      });

      it("lists the keys of an object field over the filter's documents", async () => {
        const c = store.collection<{ id: number; kind: string; variables: Record<string, unknown> }>(coll, { indexes: [{ fields: ['kind', 'id'] }] });
        await c.upsert(1, { id: 1, kind: 'a', variables: { name: 'Ann', plan: 'gold' } }, 1);
        await c.upsert(2, { id: 2, kind: 'a', variables: { 'odd key': 1, name: 'Bo' } }, 2);
        await c.upsert(3, { id: 3, kind: 'b', variables: { secret: true } }, 3);
        await c.upsert(4, { id: 4, kind: 'a', variables: {} }, 4);
        const snapshot = await c.snapshot({ kind: 'a' });
        try {
          expect(await snapshot.keysOf('variables')).toEqual(['name', 'odd key', 'plan']);
        } finally {
          await snapshot.close();
        }
      });
    });

    batchCases({ store: () => store, collection: () => coll, open, seeded });
  });
}
