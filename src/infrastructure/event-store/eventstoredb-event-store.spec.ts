import { eventStoreContract } from './event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const url = process.env.EVENTSTOREDB_URL;

if (url) {
  eventStoreContract('EventStoreDB', { open: async () => new EventStoreDbEventStore(url) });
} else {
  describe('EventStoreDB event store contract', () => {
    it.skip('skipped: EVENTSTOREDB_URL is not set (docker compose up eventstoredb, then EVENTSTOREDB_URL=esdb://localhost:2113?tls=false npm test)', () =>
      undefined);
  });
}
