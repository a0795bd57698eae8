import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore } from '../shared/ports/document-store.port';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';
import { madeInTempDirForEachTest } from './temp-dir';

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

/** Among the given events: the events before it are committed in one batch, those after in the next. */
export const NEXT_BATCH: GivenEvent = Object.freeze({ type: '(next batch)', data: {} });

/**
 * Given-then for a projection: `given(...events).then(documents)` applies the events in order, as
 * the runner does (one batch unless NEXT_BATCH splits them, positions from 1), to the projection on
 * a fresh embedded store, and expects its collection to hold exactly these documents, in `key` order.
 */
export function projectionSpec<P extends ReadModelProjection, T extends object>(
  make: (store: DocumentStore) => P,
  collection: (projection: P) => Collection<T>,
  /** The field the documents are listed by. */
  key = 'id',
) {
  /** The documents the events leave, in `key` order. */
  const documents = async (events: GivenEvent[]): Promise<T[]> => {
    const dir = mkdtempSync(join(tmpdir(), 'projection-'));
    const store = new SqliteDocumentStore(join(dir, 'read.db'));
    try {
      const projection = make(store);
      let position = 0;
      for (const batch of batchesOf(events)) {
        await store.exclusive('projections', async () => {
          for (const event of batch) await projection.apply(recorded(event, ++position));
        });
      }
      return await collection(projection).find({}, { sort: [[key, 'asc']] });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return {
    given: (...events: GivenEvent[]) => ({
      then: async (expected: unknown[]) => expect(await documents(events)).toEqual(expected),
      documents: () => documents(events),
    }),
  };
}

function batchesOf(events: GivenEvent[]): GivenEvent[][] {
  const batches: GivenEvent[][] = [[]];
  for (const event of events) {
    if (event === NEXT_BATCH) batches.push([]);
    else batches[batches.length - 1].push(event);
  }
  return batches;
}

function recorded(event: GivenEvent, position: number): RecordedEvent {
  const { type, data, occurredAt = AT, stream = 's', revision = position - 1, metadata = {} } = event;
  return { id: `e${position}`, stream, revision, position, type, schemaVersion: 1, data, metadata, occurredAt };
}

/**
 * For specs of a feature's queries: before each test of the calling suite, a fresh embedded store
 * with the projection given `events` (one batch, positions from 1), kept open for the test's reads;
 * closed and removed after it.
 */
export function projectedForEachTest<P extends ReadModelProjection>(make: (store: DocumentStore) => P, events: () => GivenEvent[]) {
  const made = madeInTempDirForEachTest(
    'projected-',
    async (dir) => {
      const store = new SqliteDocumentStore(join(dir, 'read.db'));
      const projection = make(store);
      let position = 0;
      await store.exclusive('projections', async () => {
        for (const event of events()) await projection.apply(recorded(event, ++position));
      });
      return { store, projection };
    },
    ({ store }) => store.close(),
  );
  return {
    get store() {
      return made().store;
    },
    get projection() {
      return made().projection;
    },
  };
}
