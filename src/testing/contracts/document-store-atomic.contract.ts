import { Collection, DocumentStore } from '../../shared/ports/document-store.port';
import type { DocumentStoreHarness } from './document-store.contract';

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

/** Only for adapters whose exclusive batches are transactions. */
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
