import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';
import { Filter } from '../shared/ports/document-store.port';
import { ERASED } from '../shared/sealing/personal-fields';
import { sealerForEachTest } from '../testing/sealer.fixture';
import { AT } from '../testing/projection-spec';
import { DoNotCallProjection } from './do-not-call.projection';
import { DoNotCallQueries } from './do-not-call.queries';

const number = (n: number) => `+1212555${String(n).padStart(4, '0')}`;

/** docs/forecast.md: which of a campaign's numbers are on the list, however long the list. */
describe('the do-not-call numbers among a campaign’s', () => {
  const made = sealerForEachTest('dnc-queries-');
  let dir: string;
  let store: SqliteDocumentStore;
  let projection: DoNotCallProjection;
  let queries: DoNotCallQueries;
  let reads: Array<{ filter: Filter; limit?: number; whole?: true }>;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dnc-read-'));
    store = new SqliteDocumentStore(join(dir, 'read.db'));
    projection = new DoNotCallProjection(store, made.sealer);
    queries = new DoNotCallQueries(projection, made.sealer);
    reads = [];
    const find = projection.entries.find.bind(projection.entries);
    projection.entries.find = (filter, options) => {
      reads.push({ filter: filter ?? {}, limit: options?.limit });
      return find(filter, options);
    };
    const snapshot = projection.entries.snapshot.bind(projection.entries);
    projection.entries.snapshot = (filter) => {
      reads.push({ filter: filter ?? {}, whole: true });
      return snapshot(filter);
    };
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Numbers 1..count listed for organisation 1, and number 9999 for organisation 2. */
  const listed = async (count: number) => {
    const event = (user_id: number, phone_numbers: string[], position: number) => ({
      id: `e${position}`,
      stream: `dnc-${user_id}`,
      revision: position - 1,
      position,
      type: 'NumbersAddedToDoNotCall',
      schemaVersion: 1,
      data: { user_id, phone_numbers, reason: null, source: 'api' },
      metadata: {},
      occurredAt: AT,
    });
    const numbers = Array.from({ length: count }, (_, i) => number(i + 1));
    await store.exclusive('projections', async () => {
      await projection.apply(event(1, numbers, 1));
      await projection.apply(event(2, [number(9999)], 2));
    });
  };

  it('reads a list no longer than the numbers asked once, whole', async () => {
    await listed(3);
    const isListed = await queries.listedAmong(1, [number(2), number(5), number(9999), number(5), number(6)]);
    expect([2, 5, 9999, 3].map((n) => isListed(number(n)))).toEqual([true, false, false, true]);
    expect(isListed(ERASED)).toBe(true);
    expect(reads).toEqual([
      { filter: { user_id: 1 }, limit: 1 },
      { filter: { user_id: 1 }, whole: true },
    ]);
  });

  it('asks a longer list for the numbers alone, a chunk at a time, and never reads it whole', async () => {
    await listed(1200);
    const asked = [...Array.from({ length: 600 }, (_, i) => number(2 * i + 1)), number(9999), number(5000)];
    const isListed = await queries.listedAmong(1, asked);
    expect(asked.filter(isListed)).toEqual(asked.slice(0, 600));
    const [probe, ...lookups] = reads;
    expect(probe).toEqual({ filter: { user_id: 1 }, limit: 1 });
    expect(lookups.length).toBe(2);
    expect(lookups.every(({ filter, whole }) => filter.user_id === 1 && typeof filter.phone_number === 'object' && !whole)).toBe(true);
  });

  it('answers the numbers an erasure listed, and reads no entry for an organisation that never erased anyone', async () => {
    const listing = (user_id: number, phone_numbers: string[], source: string, position: number) => ({
      id: `e${position}`,
      stream: `dnc-${user_id}`,
      revision: 0,
      position,
      type: 'NumbersAddedToDoNotCall',
      schemaVersion: 1,
      data: { user_id, phone_numbers, reason: null, source },
      metadata: {},
      occurredAt: AT,
    });
    await store.exclusive('projections', async () => {
      await projection.apply(listing(1, [number(1)], 'erasure', 1));
      await projection.apply(listing(1, [number(2)], 'user', 2));
      await projection.apply(listing(2, [number(3)], 'erasure', 3));
      await projection.apply(listing(3, [number(4)], 'user', 4));
    });
    const entryReads: unknown[] = [];
    const get = projection.entries.get.bind(projection.entries);
    projection.entries.get = (id) => (entryReads.push(id), get(id));
    expect(await queries.erased(1, [number(1), number(2), number(3)])).toEqual([number(1)]);
    expect(await queries.erased(2, [number(1), number(3)])).toEqual([number(3)]);
    entryReads.length = 0;
    expect(await queries.erased(3, [number(4), number(1)])).toEqual([]);
    expect(entryReads).toEqual([]);
  });
});
