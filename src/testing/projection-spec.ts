import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore } from '../shared/ports/document-store.port';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';

export const AT = '2025-03-01T10:00:00.000Z';

/** An event as a projection is handed it: positions follow the order given. */
export interface GivenEvent {
  type: string;
  data: object;
  occurredAt?: string;
  /** `s` and the event's place in the list unless given. */
  stream?: string;
  revision?: number;
  metadata?: Record<string, unknown>;
}

/**
 * Given-then for a projection: `given(...events).then(documents)` applies the events in order, as
 * the runner does (one batch, positions from 1), to the projection on a fresh embedded store,
 * and expects its collection to hold exactly these documents, in `key` order.
 */
export function projectionSpec<P extends ReadModelProjection, T extends object>(
  make: (store: DocumentStore) => P,
  collection: (projection: P) => Collection<T>,
  /** The field the documents are listed by. */
  key = 'id',
) {
  return {
    given: (...events: GivenEvent[]) => ({
      then: async (expected: unknown[]) => {
        const dir = mkdtempSync(join(tmpdir(), 'projection-'));
        const store = new SqliteDocumentStore(join(dir, 'read.db'));
        try {
          const projection = make(store);
          await store.exclusive('projections', async () => {
            for (const [i, event] of events.entries()) await projection.apply(recorded(event, i + 1));
          });
          expect(await collection(projection).find({}, { sort: [[key, 'asc']] })).toEqual(expected);
        } finally {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        }
      },
    }),
  };
}

function recorded(event: GivenEvent, position: number): RecordedEvent {
  const { type, data, occurredAt = AT, stream = 's', revision = position - 1, metadata = {} } = event;
  return { id: `e${position}`, stream, revision, position, type, schemaVersion: 1, data, metadata, occurredAt };
}
