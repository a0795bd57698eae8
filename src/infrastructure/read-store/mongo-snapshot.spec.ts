import { MongoStandIn } from '../../testing/mongo-stand-in';
import { MongoDocCollection } from './mongo-collection';
import { MongoSnapshot } from './mongo-snapshot';

interface Row {
  id: number;
  organisation_id: number;
}

/** docs/distributed-mode.md: an export longer than MongoDB's snapshot window (300 s). */
describe('MongoSnapshot', () => {
  let now = 0;
  const server = new MongoStandIn({ now: () => now });
  const connection = server.connection();
  const native = () => connection.collection('rm_rows');
  const rows = new MongoDocCollection<Row>(native, 'rows');
  const session = () => connection.getClient().startSession({ snapshot: true });

  beforeAll(async () => {
    for (let id = 1; id <= 2500; id++) await rows.upsert(id, { id, organisation_id: id % 2 }, id);
  });

  it('reads every document once, newest first, however long the reader takes: a page past the window reads a newer snapshot', async () => {
    now = 0;
    const snapshot = new MongoSnapshot<Row>(
      native(),
      session,
      { organisation_id: 1 },
      (doc) => ({ id: doc.id as number, organisation_id: doc.organisation_id as number }),
      () => now,
    );
    await snapshot.pin();
    await rows.upsert(2501, { id: 2501, organisation_id: 1 }, 2501);
    const read: number[] = [];
    for await (const page of snapshot.pages(200)) {
      read.push(...page.map((row) => row.id));
      now += 100_000;
    }
    await snapshot.close();
    expect(read).toEqual(Array.from({ length: 1250 }, (_, i) => 2499 - 2 * i));
  });

  it('the server refuses a snapshot read past its window (what a single cursor over the whole export met)', async () => {
    now = 0;
    const pinned = session();
    await native().findOne({}, { session: pinned });
    now = 301_000;
    await expect(native().findOne({}, { session: pinned })).rejects.toMatchObject({ code: 239 });
  });
});
