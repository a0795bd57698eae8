import { EventStoreDBClient } from '@eventstore/db-client';
import { LogClient, ownEntry, systemEntries } from '../../testing/eventstoredb-log-client';
import { eventStoreContract } from '../../testing/contracts/event-store.contract';
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

const own = (n: number) => ownEntry(n);
const system = systemEntries;
const storeOf = (client: LogClient) => new EventStoreDbEventStore(client as unknown as EventStoreDBClient);

describe('EventStoreDB adapter over a log with the server’s own events', () => {
  it('passes over thousands of system events in a row: a page is short only at the end', async () => {
    const client = new LogClient([own(1), own(2), ...system(5000), own(3), ...system(10), own(4), ...system(3000)]);
    const store = storeOf(client);
    const first = await store.readAll(0, 2);
    expect(first.map((e) => e.stream)).toEqual(['order-1', 'order-2']);
    const next = await store.readAll(first[1].position, 500);
    expect(next.map((e) => e.stream)).toEqual(['order-3', 'order-4']);
    expect(await store.readAll(next[1].position, 500)).toEqual([]);
    expect(await store.readAll(first[1].position, 500, ['Nothing'])).toEqual([]);
  });

  it('reads the whole store through a subscription the server filters; kept open for the next page, it reads ahead no further than its buffers', async () => {
    const client = new LogClient(Array.from({ length: 10_000 }, (_, i) => own(i + 1)));
    expect((await storeOf(client).readAll(0, 2)).map((e) => e.stream)).toEqual(['order-1', 'order-2']);
    expect(client.subscriptions[0].options.filter).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
    expect(client.consumed).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The client stream buffers 1,024 events on each side: the server stops there until the next page is read.
    expect(client.scanned).toBeLessThan(2100);
  });

  it('ends a filtered read where the server says it caught up, or, told nothing, once its head is reached', async () => {
    const client = new LogClient([own(1), ...system(3000), own(2), ...system(3000)]);
    const store = storeOf(client);
    // With timers held, the wait for a quiet server never ends: only `caughtUp` can end the read.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      expect((await store.readAll(0, 500)).map((e) => e.stream)).toEqual(['order-1', 'order-2']);
    } finally {
      jest.useRealTimers();
    }
    const silent = new LogClient([own(1), own(2)], { sendsCaughtUp: false });
    expect((await storeOf(silent).readAll(0, 500)).map((e) => e.stream)).toEqual(['order-1', 'order-2']);
  });

  it('reads batch after batch through one subscription kept open, new events included, and opens another only for another position', async () => {
    const client = new LogClient([own(1), own(2), ...system(100), own(3), own(4), own(5)]);
    const store = storeOf(client);
    const batches: string[][] = [];
    let after = 0;
    for (let i = 0; i < 3; i++) {
      const batch = await store.readAll(after, 2);
      batches.push(batch.map((e) => e.stream));
      after = batch.at(-1)?.position ?? after;
    }
    expect(batches).toEqual([['order-1', 'order-2'], ['order-3', 'order-4'], ['order-5']]);
    expect(await store.readAll(after, 2)).toEqual([]);
    client.append(own(6));
    expect((await store.readAll(after, 2)).map((e) => e.stream)).toEqual(['order-6']);
    expect(client.subscriptions).toHaveLength(1);
    expect((await store.readAll(0, 1)).map((e) => e.stream)).toEqual(['order-1']);
    expect(client.subscriptions).toHaveLength(2);
    await store.close();
  });

  it('finds the head among the service’s events, however many system events follow the last', async () => {
    const client = new LogClient([own(1), ...system(3), own(2), ...system(4000)]);
    expect(await storeOf(client).headPosition()).toBe(500);
    expect(await storeOf(new LogClient(system(100))).headPosition()).toBe(0);
  });
});
