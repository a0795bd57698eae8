import { AllStreamResolvedEvent, EventStoreDBClient, ReadAllOptions } from '@eventstore/db-client';
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

type Entry = { streamId: string; type: string; isJson: boolean };

/**
 * `$all` as the client reads it from a server with its standard projections on: the service's
 * events, the server's own (`$stats-…`) and the links its projections write (`$>` in `$ce-…`).
 * Reads follow the client's rules: START and END, forwards or backwards, a position read
 * forwards is included, `maxCount` bounds the entries, and the stream is consumed lazily.
 */
class LogClient {
  consumed = 0;
  private readonly log: AllStreamResolvedEvent[];

  constructor(entries: Entry[]) {
    this.log = entries.map(({ streamId, type, isJson }, i) => {
      const position = { commit: BigInt((i + 1) * 100), prepare: BigInt((i + 1) * 100) };
      const event = {
        streamId,
        id: `id-${i}`,
        revision: BigInt(i),
        type,
        data: isJson ? { n: i } : '0@order-1',
        metadata: {},
        isJson,
        created: new Date(0),
        position,
      };
      return { event, commitPosition: position.commit } as unknown as AllStreamResolvedEvent;
    });
  }

  private async *lazily(entries: AllStreamResolvedEvent[]): AsyncIterable<AllStreamResolvedEvent> {
    for (const entry of entries) {
      this.consumed++;
      yield entry;
    }
  }

  readAll({ fromPosition = 'start', direction = 'forwards', maxCount = Number.MAX_SAFE_INTEGER }: ReadAllOptions = {}): AsyncIterable<AllStreamResolvedEvent> {
    const at = (e: AllStreamResolvedEvent) => e.event!.position.commit;
    const entries =
      direction === 'forwards'
        ? this.log.filter((e) => fromPosition === 'start' || (fromPosition !== 'end' && at(e) >= fromPosition.commit))
        : this.log.filter((e) => fromPosition === 'end' || (fromPosition !== 'start' && at(e) <= fromPosition.commit)).reverse();
    return this.lazily(entries.slice(0, Number(maxCount)));
  }
}

const own = (n: number): Entry => ({ streamId: `order-${n}`, type: 'OrderPlaced', isJson: true });
const system = (count: number): Entry[] =>
  Array.from({ length: count }, (_, i) =>
    i % 2 ? { streamId: '$stats-127.0.0.1:2113', type: '$statsCollected', isJson: true } : { streamId: '$ce-order', type: '$>', isJson: false },
  );
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

  it('stops reading once it has a page', async () => {
    const client = new LogClient([own(1), own(2), own(3), ...system(10_000)]);
    await storeOf(client).readAll(0, 2);
    expect(client.consumed).toBe(2);
  });

  it('finds the head among the service’s events, however many system events follow the last', async () => {
    const client = new LogClient([own(1), ...system(3), own(2), ...system(4000)]);
    expect(await storeOf(client).headPosition()).toBe(500);
    expect(await storeOf(new LogClient(system(100))).headPosition()).toBe(0);
  });
});
