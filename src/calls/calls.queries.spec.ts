import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';
import { callSpec } from '../testing/call.fixture';
import { AT, projectedForEachTest } from '../testing/projection-spec';
import { expectIndexedWithoutSorting } from '../testing/sqlite-query-plans';
import { CallsProjection } from './calls.projection';
import { CallsQueries } from './calls.queries';

describe('a call a runtime reports on', () => {
  let dir: string;
  let store: SqliteDocumentStore;
  let projection: CallsProjection;
  let caughtUp: number;
  let queries: CallsQueries;

  /** The read model behind the event store: the dial's CallInitiated is projected only when the runner catches up. */
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'calls-queries-'));
    store = new SqliteDocumentStore(join(dir, 'read.db'));
    projection = new CallsProjection(store);
    caughtUp = 0;
    const initiated = { call_id: 7, ...callSpec({ user_id: 1, assistant_id: 2 }), provider: 'retell' };
    const event = {
      id: 'e1',
      stream: 'call-7',
      revision: 0,
      position: 1,
      type: 'CallInitiated',
      schemaVersion: 1,
      data: initiated,
      metadata: {},
      occurredAt: AT,
    };
    const runner = {
      catchUp: async () => {
        caughtUp++;
        await store.exclusive('projections', () => projection.apply(event));
      },
    } as unknown as ProjectionRunner;
    queries = new CallsQueries(projection, runner);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is found once the read models caught up with a dial they had not projected yet', async () => {
    expect(await queries.get(7)).toBeNull();
    expect(await queries.reported((calls) => calls.get(7))).toMatchObject({ id: 7 });
    expect(caughtUp).toBe(1);
  });

  it('is found without waiting when the read model has it, and is null when the store has none', async () => {
    await queries.reported((calls) => calls.get(7));
    expect(await queries.reported((calls) => calls.get(7))).toMatchObject({ id: 7 });
    expect(await queries.reported((calls) => calls.get(8))).toBeNull();
    expect(caughtUp).toBe(2);
  });
});

describe("when an organisation's n-th call was made (docs/privacy.md: a retention sweep's steps)", () => {
  const minute = (m: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + m * 60_000).toISOString();
  // Organisation 1's calls each minute from 10:00 to 10:29, organisation 2's in between.
  const made = projectedForEachTest(
    (store) => new CallsProjection(store),
    () =>
      Array.from({ length: 60 }, (_, i) => ({
        type: 'CallInitiated',
        stream: `call-${i + 1}`,
        revision: 0,
        occurredAt: minute(Math.floor(i / 2)),
        data: { call_id: i + 1, ...callSpec({ user_id: (i % 2) + 1, assistant_id: 2 }), provider: 'retell' },
      })),
  );
  const queries = () => new CallsQueries(made.projection, {} as ProjectionRunner);

  it("answers the n-th of the organisation's own calls made at or after the instant, null past its last", async () => {
    expect(await queries().nthMadeSince(1, Date.parse(minute(0)), 1)).toBe(Date.parse(minute(0)));
    expect(await queries().nthMadeSince(1, Date.parse(minute(5)), 3)).toBe(Date.parse(minute(7)));
    expect(await queries().nthMadeSince(1, Date.parse(minute(5)), 25)).toBe(Date.parse(minute(29)));
    expect(await queries().nthMadeSince(1, Date.parse(minute(5)), 26)).toBeNull();
  });

  it("reads the organisation's calls by their time through its index, without sorting them", async () => {
    await expectIndexedWithoutSorting(made.store, () => queries().nthMadeSince(1, Date.parse(minute(5)), 3));
  });
});
