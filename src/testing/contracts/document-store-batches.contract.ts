import { Collection, DocumentStore, Filter } from '../../shared/ports/document-store.port';
import { Person, expectCountsAsScanned, people } from './document-store-people.contract';

/** What the document store contract's cases share: the store of the case, a collection name of its own, and more stores on the same storage. */
export interface DocumentStoreCase {
  store(): DocumentStore;
  collection(): string;
  open(): Promise<DocumentStore>;
  /** The case's collection, filled with `people`. */
  seeded(): Promise<Collection<Person>>;
}

/** The document store contract's checkpoints, batches, counts and refills (see documentStoreContract). */
export function batchCases(t: DocumentStoreCase) {
  let store: DocumentStore;
  let coll: string;
  const { open, seeded } = t;
  beforeEach(() => {
    store = t.store();
    coll = t.collection();
  });

  describe('checkpoints and batches', () => {
    it('starts a checkpoint at 0 and keeps what was set, across a restart', async () => {
      const name = `cp-${coll}`;
      expect(await store.getCheckpoint(name)).toBe(0);
      await store.setCheckpoint(name, 42);
      await store.setCheckpoint(name, 43);
      const c = store.collection<{ v: number }>(coll);
      await c.upsert(1, { v: 1 }, 43);
      await store.close();
      const reopened = await open();
      expect(await reopened.getCheckpoint(name)).toBe(43);
      expect(await reopened.collection<{ v: number }>(coll).get(1)).toEqual({ v: 1 });
    });

    it('moves a checkpoint only forward, whichever of two stores writes last; a reset sets it as given', async () => {
      const name = `fwd-${coll}`;
      const other = await open();
      await store.setCheckpoint(name, 40);
      await other.setCheckpoint(name, 30);
      await store.exclusive(`lock-${coll}`, () => store.setCheckpoint(name, 35));
      expect(await store.getCheckpoint(name)).toBe(40);
      expect(await other.getCheckpoint(name)).toBe(40);
      await other.resetCheckpoint(name, 0);
      expect(await store.getCheckpoint(name)).toBe(0);
      await store.exclusive(`lock-${coll}`, async () => {
        await store.resetCheckpoint(name, 3);
        await store.setCheckpoint(name, 2);
        expect(await store.getCheckpoint(name)).toBe(3);
      });
      expect(await other.getCheckpoint(name)).toBe(3);
    });

    it('leases: one owner at a time, renewed by its owner, taken once lapsed or let go, the token growing at each change of hands', async () => {
      const name = `lease-${coll}`;
      const other = await open();
      const first = await store.lease(name, 'a', 1_000, 100);
      expect(first).toEqual(expect.any(Number));
      expect(await other.lease(name, 'b', 1_050, 100)).toBeNull();
      expect(await other.leaseHolder(name, 1_050)).toBe('a');
      expect(await other.leaseHolder(name, 1_100)).toBeNull();
      expect(await other.leaseHolder(`${name}-never`, 0)).toBeNull();
      // A renewal keeps the token and pushes the expiry on.
      expect(await store.lease(name, 'a', 1_090, 100)).toBe(first);
      expect(await other.lease(name, 'b', 1_150, 100)).toBeNull();
      const second = await other.lease(name, 'b', 1_190, 100);
      expect(second).toBeGreaterThan(first!);
      expect(await store.lease(name, 'a', 1_200, 100)).toBeNull();
      // Letting go is for the holder only; then anyone may take it at once.
      await store.releaseLease(name, 'a');
      expect(await store.lease(name, 'a', 1_210, 100)).toBeNull();
      await other.releaseLease(name, 'b');
      const third = await store.lease(name, 'a', 1_220, 100);
      expect(third).toBeGreaterThan(second!);
      // Two owners racing for a free lease: exactly one gets it.
      const race = await Promise.all([store.lease(`${name}-race`, 'a', 0, 100), other.lease(`${name}-race`, 'b', 0, 100)]);
      expect(race.filter((token) => token !== null)).toHaveLength(1);
    });

    it('counts hits of a named counter across stores, from nothing again once it expired', async () => {
      const name = `hits-${coll}`;
      const other = await open();
      expect(await store.countHit(name, 2_000, 1_000)).toBe(1);
      expect(await other.countHit(name, 2_000, 1_500)).toBe(2);
      expect(await store.countHit(`${name}-apart`, 2_000, 1_500)).toBe(1);
      const race = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).countHit(name, 2_000, 1_600)));
      expect(race.sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(await other.countHit(name, 3_000, 2_000)).toBe(1);
    });

    it('runs exclusive work and returns its result', async () => {
      const outcome = await store.exclusive(`lock-${coll}`, async () => {
        await store.setCheckpoint(`cp-${coll}`, 5);
        return 'done';
      });
      expect(outcome).toEqual({ ran: true, result: 'done' });
      // The same holder takes its own lock again.
      expect((await store.exclusive(`lock-${coll}`, async () => 1)).ran).toBe(true);
    });

    it('sees its own writes inside exclusive work through get, and keeps them after', async () => {
      const c = store.collection<{ id: number; v: number }>(coll, { indexes: [{ fields: ['v'] }] });
      await c.upsert(1, { id: 1, v: 1 }, 1);
      await store.exclusive(`lock-${coll}`, async () => {
        expect(await c.upsert(1, { id: 1, v: 2 }, 2)).toBe(true);
        expect(await c.upsert(1, { id: 1, v: 9 }, 2)).toBe(false);
        expect(await c.get(1)).toEqual({ id: 1, v: 2 });
        await c.upsert(2, { id: 2, v: 3 }, 3);
        expect((await c.getMany([1, 2])).map((d) => d.v).sort()).toEqual([2, 3]);
        await c.upsert(2, { id: 2, v: 4 }, 4);
        await c.upsert(3, { id: 3, v: 5 }, 5);
        expect(await c.delete(3, 6)).toBe(true);
        expect(await c.get(3)).toBeNull();
      });
      expect(await c.count()).toBe(2);
      expect(await c.find({}, { sort: [['id', 'asc']] })).toEqual([
        { id: 1, v: 2 },
        { id: 2, v: 4 },
      ]);
      expect(await c.upsert(2, { id: 2, v: 0 }, 3)).toBe(false);
    });

    describe('counts', () => {
      /** Equality counts over several field sets, next to the same counts taken by scanning. */
      const compare = async (c: Collection<Person>) => {
        const filters: Filter[] = [];
        for (const active of [true, false]) {
          filters.push({ active });
          for (const team of [1, 2, 3, 4]) filters.push({ 'team.id': team, active });
        }
        for (const age of [25, 31, 40, null]) filters.push({ age });
        for (const name of ['ann', 'zed']) filters.push({ 'team.id': 1, name, active: true });
        await expectCountsAsScanned(c, filters);
      };

      it('counts exactly as a scan would, through inserts, changes and deletes', async () => {
        const c = store.collection<Person>(coll, { indexes: [{ fields: ['active', 'age'] }] });
        await compare(c);
        for (const p of people) await c.upsert(p.id, p, p.id);
        await compare(c);
        await c.upsert(2, { ...people[1], active: true, team: { id: 3 } }, 10);
        await c.upsert(2, { ...people[1], active: false }, 9);
        await c.delete(4, 10);
        await c.upsert(6, { ...people[0], id: 6, age: null }, 11);
        await compare(c);
        expect(await c.count({ active: true, age: 31 })).toBe(1);
        expect(await c.count({ active: true, age: { gte: 30 } })).toBe(1);
      });

      it('keeps counts right through batches', async () => {
        const c = store.collection<Person>(coll);
        for (const p of people) await c.upsert(p.id, p, p.id);
        await compare(c);
        await store.exclusive(`lock-${coll}`, async () => {
          for (let pos = 10; pos < 15; pos++) await c.upsert(1, { ...(await c.get(1))!, active: pos % 2 === 0, team: { id: pos % 3 } }, pos);
          await c.delete(3, 16);
          await c.upsert(7, { ...people[4], id: 7 }, 20);
        });
        await compare(c);
      });

      it('counts documents stored before a restart, and starts again after a clear', async () => {
        const c = store.collection<Person>(coll);
        for (const p of people) await c.upsert(p.id, p, p.id);
        await compare(c);
        const reopened = await open();
        const again = reopened.collection<Person>(coll);
        await compare(again);
        await again.upsert(2, { ...people[1], active: true }, 10);
        await compare(again);
        await reopened.clearCollection(coll);
        expect(await again.count({ active: true })).toBe(0);
        await again.upsert(1, people[0], 1);
        await compare(again);
      });

      it('refills collections from nothing: the old documents gone, the new ones found, counted and viewed as if written one by one', async () => {
        const view = (p: Person) => ({ id: p.id, name: p.name });
        const c = store.collection<Person>(coll, { indexes: [{ fields: ['team.id', 'id'] }, { fields: ['active', 'age'] }], view });
        const other = store.collection<Person>(`${coll}_kept`);
        await other.upsert(1, people[0], 1);
        for (const p of people) await c.upsert(p.id, { ...p, name: 'old' }, p.id);
        await compare(c);
        await store.setCheckpoint(`${coll}_kept`, 7);
        const written = await store.refill([coll], async () => {
          await store.exclusive(`lock-${coll}`, async () => {
            for (const p of people) await c.upsert(p.id, p, p.id);
            await c.upsert(2, { ...people[1], active: true, team: { id: 3 } }, 10);
          });
          await c.upsert(9, { ...people[0], id: 9, age: 25 }, 11);
          await c.delete(5, 12);
          return 'done';
        });
        expect(written).toBe('done');
        await compare(c);
        expect((await c.find({ 'team.id': 3 }, { sort: [['id', 'asc']] })).map((p) => [p.id, p.name])).toEqual([[2, 'bob']]);
        expect((await c.findViews({ active: true }, { sort: [['id', 'asc']] })).map((v) => JSON.parse(v))).toEqual([
          { id: 1, name: 'ann' },
          { id: 2, name: 'bob' },
          { id: 3, name: 'cid' },
          { id: 4, name: 'dee' },
          { id: 9, name: 'ann' },
        ]);
        // What the refill did not name is kept.
        expect(await other.get(1)).toEqual(people[0]);
        expect(await store.getCheckpoint(`${coll}_kept`)).toBe(7);
        // Written the usual way again afterwards, the totals follow, and after a restart too.
        await c.upsert(3, { ...people[2], active: false }, 20);
        await compare(c);
        await compare((await open()).collection<Person>(coll));
      });
    });

    it('clears a collection, which stays usable through the handle it had', async () => {
      const c = await seeded();
      await store.clearCollection(coll);
      expect(await c.count()).toBe(0);
      await c.upsert(9, people[0], 1);
      expect(await store.collection<Person>(coll).count()).toBe(1);
      await store.clearCollection('never_opened');
    });
  });
}
