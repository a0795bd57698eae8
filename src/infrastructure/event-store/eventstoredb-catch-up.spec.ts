import { EventStoreDBClient } from '@eventstore/db-client';
import { LogClient, ownEntry, systemEntries } from '../../testing/eventstoredb-log-client';
import { RecordedEvent, Subscription } from '../../shared/ports/event-store.port';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const storeOf = (client: LogClient) => new EventStoreDbEventStore(client as unknown as EventStoreDBClient);

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); await new Promise((r) => setTimeout(r, 5)))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

describe('EventStoreDB catch-up subscriptions, filtered by the server (against a client stub replaying a log)', () => {
  const running: Subscription[] = [];
  afterEach(async () => {
    for (const s of running.splice(0)) await s.stop();
  });

  function follow(
    client: LogClient,
    after: number,
    options: { types?: string[]; batchSize?: number; retryDelayMs?: number } = {},
    handle?: (e: RecordedEvent) => Promise<void>,
  ) {
    const seen: RecordedEvent[] = [];
    const subscription = storeOf(client).subscribeToAll(
      after,
      async (event) => {
        await handle?.(event);
        seen.push(event);
      },
      options,
    );
    running.push(subscription);
    return { seen, subscription };
  }

  it('hands over every event of the service through thousands of system events in a row, and its position passes them', async () => {
    const client = new LogClient([ownEntry(1), ...systemEntries(5000), ownEntry(2), ...systemEntries(4000)]);
    const { seen, subscription } = follow(client, 0);
    await until(() => seen.length === 2 && client.scanned === 9002, 'the log to be read');
    expect(seen.map((e) => e.stream)).toEqual(['order-1', 'order-2']);
    // The server's last checkpoint came within one search window of the end.
    await until(() => subscription.position >= (9002 - 32) * 100, 'the position to pass the system events');
    expect(client.subscriptions[0].options.filter).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
  });

  it('asks the server for the types wanted only, and resumes from its checkpoint without reading the stretch again', async () => {
    const entries = [ownEntry(1, 'OrderShipped'), ...Array.from({ length: 3000 }, (_, i) => ownEntry(i + 2)), ...systemEntries(2000)];
    const client = new LogClient(entries);
    const first = follow(client, 0, { types: ['OrderShipped', 'Order.Cancelled'] });
    await until(() => first.seen.length === 1 && first.subscription.position >= 4960 * 100, 'the first reader to pass the stretch');
    expect(client.subscriptions[0].options.filter).toMatchObject({ filterOn: 'eventType', regex: '^(OrderShipped|Order\\.Cancelled)$' });
    const saved = first.subscription.position;
    await first.subscription.stop();

    const scannedBefore = client.scanned;
    client.append(ownEntry(9000, 'OrderShipped'));
    const again = follow(client, saved, { types: ['OrderShipped'] });
    await until(() => again.seen.length === 1, 'the new event');
    expect(again.seen[0].stream).toBe('order-9000');
    expect(client.scanned - scannedBefore).toBeLessThanOrEqual(33);
  });

  it('never moves past an event still being handled, whatever checkpoints came after it', async () => {
    const client = new LogClient([...systemEntries(100), ownEntry(1), ...systemEntries(3000)]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { seen, subscription } = follow(client, 0, { batchSize: 4 }, (e) => (e.stream === 'order-1' ? held : Promise.resolve()));
    await until(() => client.scanned > 101, 'the server to read past the event');
    await new Promise((r) => setTimeout(r, 50));
    // Checkpoints before the event moved it up to the event, not past it.
    expect(subscription.position).toBeLessThan(101 * 100);
    // The reader holds the server back: it has read a few windows past the event, not the whole log.
    expect(client.scanned).toBeLessThan(1000);
    release();
    await until(() => subscription.position >= (3101 - 32) * 100, 'the position to pass the rest');
    expect(seen.map((e) => e.stream)).toEqual(['order-1']);
  });

  it('offers a failed event again, and subscribes again from its position when the connection drops: nothing lost, nothing twice', async () => {
    const client = new LogClient([ownEntry(1), ownEntry(2), ...systemEntries(10)]);
    let failures = 1;
    const { seen } = follow(client, 0, { retryDelayMs: 10 }, async (e) => {
      if (e.stream === 'order-2' && failures-- > 0) throw new Error('handler hiccup');
    });
    await until(() => seen.length === 2, 'both events');
    client.subscriptions[0].drop(new Error('connection reset'));
    client.append(ownEntry(3));
    await until(() => client.subscriptions.length === 2 && seen.length === 3, 'the event after the drop');
    expect(seen.map((e) => e.stream)).toEqual(['order-1', 'order-2', 'order-3']);
    expect(client.subscriptions[1].options.fromPosition).toEqual({ commit: 200n, prepare: 200n });
  });

  it('follows appends once caught up', async () => {
    const client = new LogClient([ownEntry(1)]);
    const { seen } = follow(client, 0);
    await until(() => seen.length === 1, 'the first event');
    client.append(ownEntry(2));
    for (const entry of systemEntries(100)) client.append(entry);
    client.append(ownEntry(3));
    await until(() => seen.length === 3, 'the appended events');
    expect(seen.map((e) => e.stream)).toEqual(['order-1', 'order-2', 'order-3']);
  });
});
