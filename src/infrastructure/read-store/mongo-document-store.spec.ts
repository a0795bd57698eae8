import { MongoStandIn } from '../../testing/mongo-stand-in';
import { documentStoreContract } from '../../testing/contracts/document-store.contract';
import { MongoDocumentStore } from './mongo-document-store';

const url = process.env.MONGODB_URL;

if (url) {
  documentStoreContract('MongoDB', { open: () => MongoDocumentStore.connect(url) });
} else {
  describe('MongoDB document store contract', () => {
    it.skip('skipped: MONGODB_URL is not set (docker compose up mongodb, then MONGODB_URL=mongodb://localhost:27017/voice_test npm test)', () => undefined);
  });
}

// The same contract over the stand-in of the server (src/testing/mongo-stand-in.ts), so the adapter's logic is run here.
const server = new MongoStandIn({ delayedShare: 0.02 });
documentStoreContract('MongoDB adapter over the stand-in', { open: async () => MongoDocumentStore.over(server.connection()) });

describe('MongoDB adapter over the stand-in: a store written before live documents were marked', () => {
  it('marks the documents it finds at start, so they are read, and leaves tombstones out', async () => {
    const old = new MongoStandIn();
    const native = old.connection().collection('rm_people');
    await native.replaceOne({ _id: '1' } as never, { id: 1, name: 'ann', _pos: 3 }, { upsert: true });
    await native.replaceOne({ _id: '2' } as never, { _pos: 4, _deleted: true }, { upsert: true });
    const store = MongoDocumentStore.over(old.connection());
    const people = store.collection<{ id: number; name: string }>('people', { indexes: [{ fields: ['name'], unique: true }] });
    await store.ready();
    expect(await people.find()).toEqual([{ id: 1, name: 'ann' }]);
    expect(await people.count({ name: 'ann' })).toBe(1);
    expect(await people.get(2)).toBeNull();
  });
});
