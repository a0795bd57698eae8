import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventStoreContract } from '../../testing/contracts/event-store.contract';
import { SqliteEventStore, SqliteEventStoreOptions } from './sqlite-event-store';

const dir = mkdtempSync(join(tmpdir(), 'es-contract-'));

eventStoreContract('embedded SQLite', {
  open: async () => new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 }),
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});

/** A store in a file of its own for the test, closed and removed after it. */
async function withOwnStore(test: (store: SqliteEventStore) => Promise<void>, options?: SqliteEventStoreOptions): Promise<void> {
  const own = mkdtempSync(join(tmpdir(), 'es-own-'));
  const store = new SqliteEventStore(join(own, 'events.db'), options);
  try {
    await test(store);
  } finally {
    await store.close();
    rmSync(own, { recursive: true, force: true });
  }
}

describe('embedded SQLite event ids', () => {
  it('are UUIDs in the order of their positions, so the id index is written at its end', () =>
    withOwnStore(async (store) => {
      for (let i = 0; i < 50; i++) {
        await store.append(
          `order-${i % 7}`,
          [
            { type: 'Tick', data: { i } },
            { type: 'Tick', data: { i } },
          ],
          'any',
        );
      }
      const ids = (await store.readAll(0, 1000)).map((e) => e.id);
      expect(ids).toHaveLength(100);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect([...ids].sort()).toEqual(ids);
    }));
});

describe('embedded SQLite commits shared by many writes', () => {
  it('commit the writes of a turn of the event loop together, the first among them, in the order asked', () =>
    withOwnStore(async (store) => {
      // The group commit's transaction, counted as it commits.
      const group = (store as unknown as { group: Record<string, { immediate: (...args: unknown[]) => unknown }> }).group;
      const tx = group.groupTx;
      let commits = 0;
      group.groupTx = { immediate: (...args) => (commits++, tx.immediate(...args)) };
      await Promise.all(Array.from({ length: 5 }, (_, i) => store.append(`turn-${i}`, [{ type: 'Opened', data: {} }], 'no_stream')));
      expect(commits).toBe(1);
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        await store.append(`chain-${i}`, [{ type: 'Opened', data: {} }], 'no_stream');
      }
      expect(commits).toBe(4);
      expect((await store.readAll(0, 100)).map((e) => e.stream)).toEqual(['turn-0', 'turn-1', 'turn-2', 'turn-3', 'turn-4', 'chain-0', 'chain-1', 'chain-2']);
    }));

  it('undo all of a refused write, of one event or of several, and keep the others of the commit', () =>
    withOwnStore(async (store) => {
      // An event without a type breaks the column's NOT NULL: its INSERT fails after the events before it went in.
      const untyped = { type: undefined as unknown as string, data: {} };
      const results = await Promise.allSettled([
        store.append('order-0', [{ type: 'Opened', data: {} }], 'no_stream'),
        store.append('order-1', [{ type: 'Opened', data: {} }], 'no_stream'),
        store.append('order-2', [{ type: 'Opened', data: {} }, untyped], 'no_stream'),
        store.append('order-3', [untyped], 'no_stream'),
        store.append('order-4', [{ type: 'Opened', data: {} }], 'no_stream'),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((await store.readAll(0, 100)).map((e) => e.stream)).toEqual(['order-0', 'order-1', 'order-4']);
    }));

  it('refuse every write of a commit that SQLite rolls back whole (the disk full), and store none of them', () =>
    withOwnStore(async (store) => {
      await store.append('order-0', [{ type: 'Opened', data: {} }], 'no_stream');
      // The file may grow by a few pages only: a write past them fails with SQLITE_FULL, which rolls the transaction back.
      const db = (store as unknown as { db: Database.Database }).db;
      db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 3}`);
      const big = 'x'.repeat(3000);
      const asked = [
        // Too big for the pages left.
        store.append('order-9', [{ type: 'Opened', data: { big: big.repeat(8) } }], 'no_stream'),
        store.nextId('order'),
        ...Array.from({ length: 8 }, (_, i) => store.append(`order-${i + 1}`, [{ type: 'Opened', data: { big } }], 'no_stream')),
      ];
      const results = await Promise.allSettled(asked);
      expect(results.map((r) => r.status)).toEqual(asked.map(() => 'rejected'));
      expect(results.some((r) => (r as PromiseRejectedResult).reason?.code === 'SQLITE_FULL')).toBe(true);

      db.pragma('max_page_count = 1073741823');
      expect((await store.readAll(0, 100)).map((e) => e.stream)).toEqual(['order-0']);
      expect(await store.nextId('order')).toBe(1);
    }));
});

describe('embedded SQLite reads at the head', () => {
  it('answers from what it appended while no other connection commits, and reads the file once one has', () =>
    withOwnStore(async (store) => {
      const file = (store as unknown as { db: Database.Database }).db.name;
      const fileReads = jest.spyOn(store as unknown as { read: (where: string) => unknown }, 'read');
      const heads = jest.spyOn((store as unknown as { statements: { head: { get: () => unknown } } }).statements.head, 'get');
      await store.append('mine-1', [{ type: 'Mine', data: { n: 1 } }], 'no_stream');
      await store.append('mine-2', [{ type: 'Other', data: { n: 2 } }], 'no_stream');
      expect((await store.readAll(0, 10, ['Mine'])).map((e) => e.data)).toEqual([{ n: 1 }]);
      const [first] = await store.readAll(0, 10);
      expect(first).toEqual((await store.readStream('mine-1'))[0]);
      expect(await store.headPosition()).toBe(2);
      expect(fileReads).not.toHaveBeenCalled();
      expect(heads).not.toHaveBeenCalled();

      const other = new SqliteEventStore(file);
      await other.append('theirs', [{ type: 'Theirs', data: { n: 3 } }], 'no_stream');
      await other.close();
      expect(await store.headPosition()).toBe(3);
      expect((await store.readAll(1, 10)).map((e) => e.data)).toEqual([{ n: 2 }, { n: 3 }]);
      expect(fileReads).toHaveBeenCalled();
      // The next append follows rows this store never held: it starts again from its own.
      await store.append('mine-1', [{ type: 'Mine', data: { n: 4 } }], 0);
      expect((await store.readAll(0, 10, ['Mine', 'Theirs'])).map((e) => e.data)).toEqual([{ n: 1 }, { n: 3 }, { n: 4 }]);
    }));

  it('tells its watchers every type when another process appended before its own commit', () =>
    withOwnStore(
      async (store) => {
        const file = (store as unknown as { db: Database.Database }).db.name;
        await store.append('mine', [{ type: 'Mine', data: {} }], 'no_stream');
        const told: Array<readonly string[] | undefined> = [];
        const unwatch = store.watch((types) => told.push(types));
        const other = new SqliteEventStore(file);
        await other.append('theirs', [{ type: 'Theirs', data: {} }], 'no_stream');
        await other.close();
        // Committed before the poll could see the other process's event.
        await store.append('mine', [{ type: 'Mine', data: {} }], 0);
        await store.append('mine', [{ type: 'Mine', data: {} }], 1);
        unwatch();
        // The poll, which would have told them too, does not run in this test.
        expect(told).toStrictEqual([undefined, ['Mine']]);
      },
      { pollIntervalMs: 3_600_000 },
    ));

  it('tells its watchers of its own appends once: the poll for other processes does not wake them again', () =>
    withOwnStore(
      async (store) => {
        const told: Array<readonly string[] | undefined> = [];
        const unwatch = store.watch((types) => told.push(types));
        await store.append('mine', [{ type: 'Mine', data: {} }], 'no_stream');
        await new Promise((resolve) => setTimeout(resolve, 100));
        unwatch();
        expect(told).toStrictEqual([['Mine']]);
      },
      { pollIntervalMs: 10 },
    ));
});
