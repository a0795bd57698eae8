import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventStoreContract } from './event-store.contract';
import { SqliteEventStore } from './sqlite-event-store';

const dir = mkdtempSync(join(tmpdir(), 'es-contract-'));

eventStoreContract('embedded SQLite', {
  open: async () => new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 }),
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});

/** A store in a file of its own for the test, closed and removed after it. */
async function withOwnStore(test: (store: SqliteEventStore) => Promise<void>): Promise<void> {
  const own = mkdtempSync(join(tmpdir(), 'es-own-'));
  const store = new SqliteEventStore(join(own, 'events.db'));
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
        await store.append(`order-${i % 7}`, [{ type: 'Tick', data: { i } }, { type: 'Tick', data: { i } }], 'any');
      }
      const ids = (await store.readAll(0, 1000)).map((e) => e.id);
      expect(ids).toHaveLength(100);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect([...ids].sort()).toEqual(ids);
    }));
});

describe('embedded SQLite commits shared by many writes', () => {
  it('undo all of a refused write, of one event or of several, and keep the others of the commit', () =>
    withOwnStore(async (store) => {
      const shared = { shareCommit: true };
      // An event without a type breaks the column's NOT NULL: its INSERT fails after the events before it went in.
      const untyped = { type: undefined as unknown as string, data: {} };
      const results = await Promise.allSettled([
        store.append('order-1', [{ type: 'Opened', data: {} }], 'no_stream', shared),
        store.append('order-2', [{ type: 'Opened', data: {} }, untyped], 'no_stream', shared),
        store.append('order-3', [untyped], 'no_stream', shared),
        store.append('order-4', [{ type: 'Opened', data: {} }], 'no_stream', shared),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((await store.readAll(0, 100)).map((e) => e.stream)).toEqual(['order-1', 'order-4']);
    }));

  it('refuse every write of a commit that SQLite rolls back whole (the disk full), and store none of them', () =>
    withOwnStore(async (store) => {
      await store.append('order-0', [{ type: 'Opened', data: {} }], 'no_stream');
      // The file may grow by a few pages only: a write past them fails with SQLITE_FULL, which rolls the transaction back.
      const db = (store as unknown as { db: Database.Database }).db;
      db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 3}`);
      const shared = { shareCommit: true };
      const big = 'x'.repeat(3000);
      const asked = [
        store.nextId('order', shared),
        ...Array.from({ length: 8 }, (_, i) => store.append(`order-${i + 1}`, [{ type: 'Opened', data: { big } }], 'no_stream', shared)),
      ];
      const results = await Promise.allSettled(asked);
      expect(results.map((r) => r.status)).toEqual(asked.map(() => 'rejected'));
      expect(results.some((r) => (r as PromiseRejectedResult).reason?.code === 'SQLITE_FULL')).toBe(true);

      db.pragma('max_page_count = 1073741823');
      expect((await store.readAll(0, 100)).map((e) => e.stream)).toEqual(['order-0']);
      expect(await store.nextId('order')).toBe(1);
    }));
});
