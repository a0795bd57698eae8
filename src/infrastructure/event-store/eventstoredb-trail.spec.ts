import { EventStoreDBClient } from '@eventstore/db-client';
import { LogClient, systemEntries } from '../../testing/eventstoredb-log-client';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/**
 * The campaign trail on EventStoreDB without its system projections: the service indexes
 * correlated events itself (links in `trail-<id>`). Against the client stub, which appends with
 * expected revisions and resolves links on reads as the server does.
 */
describe('EventStoreDB correlation trail, kept by the service', () => {
  const storeOf = (client: LogClient) => new EventStoreDbEventStore(client as unknown as EventStoreDBClient);
  const tagged = (tag: string) => ({ type: 'Happened', data: { tag }, metadata: { $correlationId: tag } });

  async function seed(store: EventStoreDbEventStore, client: LogClient) {
    await store.append('campaign-1', [tagged('campaign-1')], 'no_stream');
    for (const entry of systemEntries(300)) client.append(entry);
    await store.append('lead-1', [tagged('campaign-1'), tagged('campaign-2')], 'no_stream');
    await store.append('lead-2', [{ type: 'Untagged', data: {} }], 'no_stream');
    await store.append('campaign-1', [tagged('campaign-1')], 0);
  }

  it('answers the events of a correlation in order, a page at a time, past any number of system events', async () => {
    const client = new LogClient([]);
    const store = storeOf(client);
    await seed(store, client);
    const all = await store.readCorrelated('campaign-1', 0, 10);
    expect(all.map((e) => [e.stream, e.revision])).toEqual([
      ['campaign-1', 0],
      ['lead-1', 0],
      ['campaign-1', 1],
    ]);
    expect(all.every((e) => e.type === 'Happened' && e.metadata.$correlationId === 'campaign-1')).toBe(true);
    const second = await store.readCorrelated('campaign-1', all[0].position, 1);
    expect(second.map((e) => e.stream)).toEqual(['lead-1']);
    expect((await store.readCorrelated('campaign-1', all[1].position, 10)).map((e) => e.position)).toEqual([all[2].position]);
    expect(await store.readCorrelated('campaign-1', all[2].position, 10)).toEqual([]);
    expect((await store.readCorrelated('campaign-2', 0, 10)).map((e) => e.stream)).toEqual(['lead-1']);
    expect(await store.readCorrelated('campaign-9', 0, 10)).toEqual([]);
  });

  it('links a page of one trail in one append: an import of 1,200 leads into a campaign takes a few appends, not 1,200', async () => {
    const client = new LogClient([]);
    const store = storeOf(client);
    for (let i = 0; i < 1200; i++) await store.append(`lead-${i}`, [tagged('campaign-7')], 'no_stream');
    const appends = jest.spyOn(client, 'appendToStream');
    const trail = await store.readCorrelated('campaign-7', 0, 2000);
    expect(trail).toHaveLength(1200);
    expect(appends.mock.calls.filter(([stream]) => stream === 'trail-campaign-7').length).toBeLessThanOrEqual(3);
  });

  it('indexes in the background as events are appended, before any history is asked for', async () => {
    const client = new LogClient([]);
    const store = storeOf(client);
    const unwatch = store.watch(() => undefined);
    for (let i = 0; i < 20; i++) await store.append(`lead-${i}`, [tagged('campaign-8')], 'no_stream');
    const linked = jest.spyOn(client, 'appendToStream');
    for (let waited = 0; client.streamLength('trail-campaign-8') < 20 && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.streamLength('trail-campaign-8')).toBe(20);
    linked.mockClear();
    expect(await store.readCorrelated('campaign-8', 0, 50)).toHaveLength(20);
    expect(linked.mock.calls.filter(([stream]) => stream === 'trail-campaign-8')).toHaveLength(0);
    unwatch();
    await store.close();
  });

  it('shows an event appended after the last read at the next read', async () => {
    const client = new LogClient([]);
    const store = storeOf(client);
    await seed(store, client);
    await store.readCorrelated('campaign-1', 0, 10);
    await store.append('call-7', [tagged('campaign-1')], 'no_stream');
    expect((await store.readCorrelated('campaign-1', 0, 10)).map((e) => e.stream)).toEqual(['campaign-1', 'lead-1', 'campaign-1', 'call-7']);
  });

  it('links each event once when several instances index at the same time, and a restart goes on from the checkpoint', async () => {
    const client = new LogClient([]);
    await seed(storeOf(client), client);
    const [a, b] = [storeOf(client), storeOf(client)];
    const [fromA, fromB] = await Promise.all([a.readCorrelated('campaign-1', 0, 10), b.readCorrelated('campaign-1', 0, 10)]);
    expect(fromA.map((e) => e.position)).toEqual(fromB.map((e) => e.position));
    const links = async (tag: string) => {
      const out: string[] = [];
      for await (const r of client.readStream(`trail-${tag}`)) out.push(String(r.event!.data));
      return out;
    };
    expect(await links('campaign-1')).toEqual(['0@campaign-1', '0@lead-1', '1@campaign-1']);
    expect(await links('campaign-2')).toEqual(['1@lead-1']);

    const consumed = client.consumed;
    const restarted = storeOf(client);
    expect(await restarted.readCorrelated('campaign-2', 0, 10)).toHaveLength(1);
    // The index resumed at its checkpoint: it read no stretch of the log again.
    expect(client.consumed - consumed).toBeLessThan(20);
  });

  it('keeps its own streams out of what the service reads as its events', async () => {
    const client = new LogClient([]);
    const store = storeOf(client);
    await seed(store, client);
    await store.readCorrelated('campaign-1', 0, 10);
    const streams = (await store.readAll(0, 1000)).map((e) => e.stream);
    expect(streams).toEqual(['campaign-1', 'lead-1', 'lead-1', 'lead-2', 'campaign-1']);
  });
});
