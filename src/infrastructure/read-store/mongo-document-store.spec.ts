import { documentStoreContract } from './document-store.contract';
import { MongoDocumentStore } from './mongo-document-store';

const url = process.env.MONGODB_URL;

if (url) {
  documentStoreContract('MongoDB', { open: () => MongoDocumentStore.connect(url) });
} else {
  describe('MongoDB document store contract', () => {
    it.skip('skipped: MONGODB_URL is not set (docker compose up mongodb, then MONGODB_URL=mongodb://localhost:27017/voice_test npm test)', () => undefined);
  });
}
