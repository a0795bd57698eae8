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

describe('embedded SQLite event ids', () => {
  const own = mkdtempSync(join(tmpdir(), 'es-ids-'));
  afterAll(() => rmSync(own, { recursive: true, force: true }));

  it('are UUIDs in the order of their positions, so the id index is written at its end', async () => {
    const store = new SqliteEventStore(join(own, 'events.db'));
    try {
      for (let i = 0; i < 50; i++) {
        await store.append(`order-${i % 7}`, [{ type: 'Tick', data: { i } }, { type: 'Tick', data: { i } }], 'any');
      }
      const ids = (await store.readAll(0, 1000)).map((e) => e.id);
      expect(ids).toHaveLength(100);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect([...ids].sort()).toEqual(ids);
    } finally {
      await store.close();
    }
  });
});
