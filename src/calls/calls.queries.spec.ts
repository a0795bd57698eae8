import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';
import { callSpec } from '../testing/call.fixture';
import { AT } from '../testing/projection-spec';
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
