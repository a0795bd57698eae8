import { randomUUID } from 'node:crypto';
import { ConcurrencyError } from '../../shared/ports/event-store.errors';
import { EventStore, ExpectedRevision } from '../../shared/ports/event-store.port';
import { readCases } from './event-store-reads.contract';
import { subscriptionCases } from './event-store-subscriptions.contract';

/** Two events of no data, of these types. */
const two = (first: string, second: string) => [
  { type: first, data: {} },
  { type: second, data: {} },
];

export interface EventStoreHarness {
  /** Opens the store; calling it again opens the same underlying storage anew (a restart). */
  open(): Promise<EventStore>;
  cleanup?(): Promise<void>;
}

/**
 * The behaviour every event store adapter must share. Stream names carry a random
 * prefix so the suite can run against a store that already holds other events.
 */
export function eventStoreContract(name: string, harness: EventStoreHarness) {
  describe(`${name} event store contract`, () => {
    let store: EventStore;
    let prefix: string;
    const opened: EventStore[] = [];
    const open = async () => {
      const s = await harness.open();
      opened.push(s);
      return s;
    };

    beforeEach(async () => {
      store = await open();
      prefix = `t${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    });
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close().catch(() => undefined);
    });
    afterAll(async () => harness.cleanup?.());

    describe('append and read a stream', () => {
      it('gives a new stream revision 0 for its first event and counts on from there', async () => {
        const first = await store.append(`${prefix}-a`, [{ type: 'Opened', data: { n: 1 } }], 'no_stream');
        expect(first.revision).toBe(0);
        const next = await store.append(
          `${prefix}-a`,
          [
            { type: 'Changed', data: { n: 2 } },
            { type: 'Changed', data: { n: 3 } },
          ],
          0,
        );
        expect(next.revision).toBe(2);
        expect(next.position).toBeGreaterThan(first.position);
      });

      it('reads back type, data, schema version, metadata and revisions in order', async () => {
        await store.append(
          `${prefix}-a`,
          [
            { type: 'Opened', data: { name: 'x', tags: ['a'] }, schemaVersion: 2, metadata: { user_id: 7, occurred_at: '2025-01-31T12:00:00.000Z' } },
            { type: 'Closed', data: {} },
          ],
          'no_stream',
        );
        const events = await store.readStream(`${prefix}-a`);
        expect(events.map((e) => [e.type, e.revision])).toEqual([
          ['Opened', 0],
          ['Closed', 1],
        ]);
        expect(events[0].data).toEqual({ name: 'x', tags: ['a'] });
        expect(events[0].schemaVersion).toBe(2);
        expect(events[1].schemaVersion).toBe(1);
        expect(events[0].metadata.user_id).toBe(7);
        expect(events[0].occurredAt).toBe('2025-01-31T12:00:00.000Z');
        expect(events[0].stream).toBe(`${prefix}-a`);
        expect(events[0].id).not.toEqual(events[1].id);
      });

      it('reads from a revision on', async () => {
        await store.append(
          `${prefix}-a`,
          [1, 2, 3].map((n) => ({ type: 'N', data: { n } })),
          'no_stream',
        );
        const events = await store.readStream(`${prefix}-a`, 1);
        expect(events.map((e) => e.data.n)).toEqual([2, 3]);
      });

      it('reads an unknown stream as empty', async () => {
        expect(await store.readStream(`${prefix}-missing`)).toEqual([]);
      });

      it('accepts any revision when told so', async () => {
        await store.append(`${prefix}-a`, [{ type: 'A', data: {} }], 'any');
        const r = await store.append(`${prefix}-a`, [{ type: 'B', data: {} }], 'any');
        expect(r.revision).toBe(1);
      });
    });

    describe('expected revision conflicts', () => {
      it('refuses no_stream when the stream exists', async () => {
        await store.append(`${prefix}-a`, [{ type: 'A', data: {} }], 'no_stream');
        await expect(store.append(`${prefix}-a`, [{ type: 'A', data: {} }], 'no_stream')).rejects.toBeInstanceOf(ConcurrencyError);
      });

      it('refuses a revision when the stream does not exist', async () => {
        await expect(store.append(`${prefix}-a`, [{ type: 'A', data: {} }], 0)).rejects.toBeInstanceOf(ConcurrencyError);
      });

      it.each<[string, ExpectedRevision]>([
        ['a stale revision', 0],
        ['no_stream', 'no_stream'],
      ])('refuses %s, naming the revision the stream is at, and writes nothing of the refused batch', async (_, expected) => {
        await store.append(`${prefix}-a`, two('A', 'B'), 'no_stream');
        const error = await store.append(`${prefix}-a`, two('C', 'D'), expected).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect(error).toMatchObject({ stream: `${prefix}-a`, expected, actual: 1 });
        expect((await store.readStream(`${prefix}-a`)).map((e) => e.type)).toEqual(['A', 'B']);
      });

      it.each<[string, ExpectedRevision]>([
        ['at the same revision', 0],
        ['opening the same stream', 'no_stream'],
      ])('lets exactly one of many concurrent writers %s win', async (_, expected) => {
        if (expected !== 'no_stream') await store.append(`${prefix}-a`, [{ type: 'A', data: {} }], 'no_stream');
        const other = await open();
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).append(`${prefix}-a`, [{ type: 'Claim', data: { i } }], expected)),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results.filter((r) => r.status === 'rejected')) {
          expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
        }
        expect(await store.readStream(`${prefix}-a`)).toHaveLength(expected === 'no_stream' ? 1 : 2);
      });

      it('decides each of many appends asked at once on its own, a refused one takes none of the others with it', async () => {
        await store.append(`${prefix}-b`, [{ type: 'A', data: {} }], 'no_stream');
        const asked = [
          store.append(`${prefix}-c`, [{ type: 'C', data: {} }], 'no_stream'),
          store.append(`${prefix}-b`, [{ type: 'Stale', data: {} }], 5),
          store.nextId(`${prefix}-seq`),
          store.append(`${prefix}-b`, [{ type: 'B', data: {} }], 0),
          store.append(`${prefix}-b`, [{ type: 'AlsoAtZero', data: {} }], 0),
          store.append(`${prefix}-d`, two('D', 'E'), 'no_stream'),
        ];
        const results = await Promise.allSettled(asked);
        expect([0, 1, 2, 5].map((i) => results[i].status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
        expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
        // Two appends at revision 0: exactly one wins, whichever committed first.
        const atZero = [results[3], results[4]];
        expect(atZero.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect((atZero.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
        const winner = results[3].status === 'fulfilled' ? 'B' : 'AlsoAtZero';
        expect((await store.readStream(`${prefix}-b`)).map((e) => e.type)).toEqual(['A', winner]);
        expect((await store.readStream(`${prefix}-c`)).map((e) => e.type)).toEqual(['C']);
        expect((await store.readStream(`${prefix}-d`)).map((e) => [e.type, e.revision])).toEqual([
          ['D', 0],
          ['E', 1],
        ]);
        const d = results[5] as PromiseFulfilledResult<{ position: number; revision: number }>;
        expect(d.value.revision).toBe(1);
        expect(d.value.position).toBe((await store.readStream(`${prefix}-d`))[1].position);
      });
    });

    readCases({ store: () => store, prefix: () => prefix, open });
    subscriptionCases({ store: () => store, prefix: () => prefix, open });
  });
}
