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
