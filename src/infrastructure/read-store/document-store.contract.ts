import { randomUUID } from 'node:crypto';
import { Collection, DocumentStore } from './document-store.port';
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

    batchCases({ store: () => store, collection: () => coll, open, seeded });
  });
}

/** Only for adapters whose exclusive batches are transactions. */
/**
 * Runs `work` as a batch that waits on `paused`; meanwhile writes, outside it, the checkpoint
 * `outside` (7) and the document `outside` of `c`, as a reactor's checkpoint or a heartbeat would;
 * then lets the batch end however `work` ends it, and answers once everything settled.
 */
export async function writeBesideBatch(store: DocumentStore, c: Collection<{ v: number }>, work: (paused: Promise<void>) => Promise<void>): Promise<void> {
  let release!: () => void;
  const paused = new Promise<void>((resolve) => (release = resolve));
  const batch = store.exclusive('projections', () => work(paused)).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 5));
  const outside = Promise.all([store.setCheckpoint('outside', 7), c.upsert('outside', { v: 1 }, 2)]);
  await new Promise((r) => setTimeout(r, 20));
  release();
  await batch;
  await outside;
}

export function atomicBatchContract(name: string, harness: DocumentStoreHarness) {
  describe(`${name} atomic batches`, () => {
    it('rolls back the documents and the checkpoint together when the work fails', async () => {
      const store = await harness.open();
      const c = store.collection<{ v: number }>('atomic');
      await store
        .exclusive('projections', async () => {
          await c.upsert(1, { v: 1 }, 1);
          await store.setCheckpoint('atomic', 1);
          throw new Error('crash mid-batch');
        })
        .catch(() => undefined);
      expect(await c.get(1)).toBeNull();
      expect(await store.getCheckpoint('atomic')).toBe(0);
      await store.close();
    });

    it('keeps a write made outside a batch while the batch runs, though the batch fails', async () => {
      const store = await harness.open();
      const c = store.collection<{ v: number }>('outside_writes');
      await writeBesideBatch(store, c, async (paused) => {
        await c.upsert('inside', { v: 1 }, 1);
        await paused;
        throw new Error('crash mid-batch');
      });
      expect(await store.getCheckpoint('outside')).toBe(7);
      expect(await c.get('outside')).toEqual({ v: 1 });
      expect(await c.get('inside')).toBeNull();
      await store.close();
    });

    it('rolls back documents read and changed many times in the failed work, and the next batch starts clean', async () => {
      const store = await harness.open();
      const c = store.collection<{ v: number }>('atomic_many');
      await c.upsert(1, { v: 1 }, 1);
      await store
        .exclusive('projections', async () => {
          for (let p = 2; p < 10; p++) await c.upsert(1, { v: (await c.get(1))!.v + 1 }, p);
          throw new Error('crash mid-batch');
        })
        .catch(() => undefined);
      expect(await c.get(1)).toEqual({ v: 1 });
      await store.exclusive('projections', async () => c.upsert(1, { v: (await c.get(1))!.v + 10 }, 2));
      expect(await c.get(1)).toEqual({ v: 11 });
      await store.close();
    });

    it('rolls the counts back with a failed batch', async () => {
      const store = await harness.open();
      const c = store.collection<{ id: number; v: number }>('atomic_counts');
      for (let id = 1; id <= 3; id++) await c.upsert(id, { id, v: id % 2 }, id);
      await store
        .exclusive('projections', async () => {
          await c.upsert(8, { id: 8, v: 1 }, 30);
          throw new Error('crash mid-batch');
        })
        .catch(() => undefined);
      expect(await c.count({ v: 1 })).toBe(2);
      expect(await c.count({ v: 0 })).toBe(1);
      await store.close();
    });

    it('leaves the collections as they were when a refill fails, whatever it wrote meanwhile', async () => {
      const store = await harness.open();
      const c = store.collection<{ id: number; v: number }>('refilled', { indexes: [{ fields: ['v'] }] });
      for (let id = 1; id <= 3; id++) await c.upsert(id, { id, v: 1 }, id);
      await store.setCheckpoint('refilled', 3);
      const failed = store.refill(['refilled'], async () => {
        await store.resetCheckpoint('refilled', 0);
        await c.upsert(9, { id: 9, v: 2 }, 9);
        throw new Error('crash mid-rebuild');
      });
      await expect(failed).rejects.toThrow('crash mid-rebuild');
      expect((await c.find({}, { sort: [['id', 'asc']] })).map((d) => d.id)).toEqual([1, 2, 3]);
      expect(await c.count({ v: 1 })).toBe(3);
      expect(await store.getCheckpoint('refilled')).toBe(3);
      await store.close();
    });
  });
}
