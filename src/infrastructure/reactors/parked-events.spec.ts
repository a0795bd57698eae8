import { EventStoreDBClient } from '@eventstore/db-client';
import { ManualClock } from '../../shared/clock';
import { LogClient, ownEntry, systemEntries } from '../../testing/eventstoredb-log-client';
import { CommandRunner } from '../event-sourcing/command-runner';
import { Upcasters } from '../event-sourcing/upcasters';
import { EventStoreDbEventStore } from '../event-store/eventstoredb-event-store';
import { RecordedEvent } from '../../shared/ports/event-store.port';
import { ParkedEvents } from './parked-events';
import { Reactor } from './reactor';

/**
 * A parked event is retried from its own position. EventStoreDB refuses a read from a position
 * inside a record (the stand-in does as the server does): a retry that read "after position − 1"
 * threw on every tick and the event was never tried again.
 */
describe('parked events over EventStoreDB', () => {
  it('retries a parked event read from its own position until its reactor takes it', async () => {
    const client = new LogClient([ownEntry(1), ...systemEntries(3), ownEntry(2)]);
    const store = new EventStoreDbEventStore(client as unknown as EventStoreDBClient);
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const upcasters = new Upcasters();
    const taken: number[] = [];
    const reactor: Reactor = { name: 'spec-reactor', eventTypes: ['OrderPlaced'], react: async (event: RecordedEvent) => void taken.push(event.position) };
    const parked = new ParkedEvents(reactor, store, new CommandRunner(store, clock, upcasters), upcasters, clock);
    const [, second] = await store.readAll(0, 10);
    await expect(store.readAll(second.position - 1, 1)).rejects.toThrow('InvalidPosition');
    await parked.start();
    await parked.park(second, 'order-2', new Error('failed once'));
    expect(parked.holds('order-2')).toBe(true);
    clock.advance(2_000);
    for (let i = 0; i < 40 && parked.holds('order-2'); i++) await new Promise((r) => setTimeout(r, 100));
    await parked.stop();
    expect(taken).toEqual([second.position]);
    expect(parked.holds('order-2')).toBe(false);
  });
});
