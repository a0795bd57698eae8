import { randomUUID } from 'node:crypto';
import { ConcurrencyError } from '../../shared/ports/event-store.errors';
import { EventStore, RecordedEvent } from '../../shared/ports/event-store.port';
import { subscriptionCases } from './event-store-subscriptions.contract';

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
    const ours = (events: RecordedEvent[]) => events.filter((e) => e.stream.startsWith(prefix));

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

      it('refuses a stale revision and writes nothing of the refused batch', async () => {
        await store.append(
          `${prefix}-a`,
          [
            { type: 'A', data: {} },
            { type: 'B', data: {} },
          ],
          'no_stream',
        );
        const error = await store
          .append(
            `${prefix}-a`,
            [
              { type: 'C', data: {} },
              { type: 'D', data: {} },
            ],
            0,
          )
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect((error as ConcurrencyError).actual).toBe(1);
        expect((await store.readStream(`${prefix}-a`)).map((e) => e.type)).toEqual(['A', 'B']);
      });

      it('lets exactly one of many concurrent writers at the same revision win', async () => {
        await store.append(`${prefix}-a`, [{ type: 'A', data: {} }], 'no_stream');
        const other = await open();
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).append(`${prefix}-a`, [{ type: 'Claim', data: { i } }], 0)),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results.filter((r) => r.status === 'rejected')) {
          expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
        }
        expect(await store.readStream(`${prefix}-a`)).toHaveLength(2);
      });

      it('decides each of many appends asked at once on its own, a refused one takes none of the others with it', async () => {
        await store.append(`${prefix}-b`, [{ type: 'A', data: {} }], 'no_stream');
        const asked = [
          store.append(`${prefix}-c`, [{ type: 'C', data: {} }], 'no_stream'),
          store.append(`${prefix}-b`, [{ type: 'Stale', data: {} }], 5),
          store.nextId(`${prefix}-seq`),
          store.append(`${prefix}-b`, [{ type: 'B', data: {} }], 0),
          store.append(`${prefix}-b`, [{ type: 'AlsoAtZero', data: {} }], 0),
          store.append(
            `${prefix}-d`,
            [
              { type: 'D', data: {} },
              { type: 'E', data: {} },
            ],
            'no_stream',
          ),
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

    describe('correlated reads', () => {
      it('reads the events of many streams sharing a correlation id, in order, paged after a position', async () => {
        const tag = `${prefix}-campaign`;
        const other = `${prefix}-other`;
        await store.append(`${prefix}-a`, [{ type: 'A1', data: {}, metadata: { $correlationId: tag } }], 'no_stream');
        await store.append(`${prefix}-b`, [{ type: 'B1', data: {}, metadata: { $correlationId: other } }], 'no_stream');
        await store.append(
          `${prefix}-c`,
          [
            { type: 'C1', data: {}, metadata: { $correlationId: tag } },
            { type: 'C2', data: {} },
          ],
          'no_stream',
        );
        await store.append(`${prefix}-a`, [{ type: 'A2', data: {}, metadata: { $correlationId: tag } }], 0);
        // EventStoreDB builds its link streams asynchronously.
        let all: RecordedEvent[] = [];
        for (let i = 0; i < 100 && all.length < 3; i++) {
          all = await store.readCorrelated(tag, 0, 100);
          if (all.length < 3) await new Promise((r) => setTimeout(r, 50));
        }
        expect(all.map((e) => e.type)).toEqual(['A1', 'C1', 'A2']);
        expect(all[0].metadata.$correlationId).toBe(tag);
        const page = await store.readCorrelated(tag, all[0].position, 1);
        expect(page.map((e) => e.type)).toEqual(['C1']);
        expect(await store.readCorrelated(`${prefix}-none`, 0, 10)).toEqual([]);
      });
    });

    describe('read all', () => {
      it('returns events of every stream in append order after a position', async () => {
        const start = await store.headPosition();
        await store.append(`${prefix}-a`, [{ type: 'A1', data: {} }], 'no_stream');
        await store.append(`${prefix}-b`, [{ type: 'B1', data: {} }], 'no_stream');
        await store.append(
          `${prefix}-a`,
          [
            { type: 'A2', data: {} },
            { type: 'A3', data: {} },
          ],
          0,
        );
        const all = ours(await store.readAll(start, 1000));
        expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'A2', 'A3']);
        const positions = all.map((e) => e.position);
        expect([...positions].sort((x, y) => x - y)).toEqual(positions);
        expect(new Set(positions).size).toBe(positions.length);

        const after = ours(await store.readAll(all[1].position, 1000));
        expect(after.map((e) => e.type)).toEqual(['A2', 'A3']);
        expect(await store.headPosition()).toBe(all[3].position);
      });

      it('reads only the asked types, still in order, skipping any stretch of others', async () => {
        const start = await store.headPosition();
        await store.append(`${prefix}-a`, [{ type: 'Keep', data: { n: 1 } }, ...Array.from({ length: 300 }, () => ({ type: 'Skip', data: {} }))], 'no_stream');
        await store.append(
          `${prefix}-b`,
          [
            { type: 'Also', data: { n: 2 } },
            { type: 'Keep', data: { n: 3 } },
          ],
          'no_stream',
        );
        const kept = ours(await store.readAll(start, 10, ['Keep', 'Also']));
        expect(kept.map((e) => [e.type, e.data.n])).toEqual([
          ['Keep', 1],
          ['Also', 2],
          ['Keep', 3],
        ]);
        expect(ours(await store.readAll(kept[0].position, 1, ['Keep', 'Also'])).map((e) => e.data.n)).toEqual([2]);
        expect(await store.readAll(start, 10, [])).toEqual([]);
      });

      it('reads back the same events a stream read returns, data and metadata included', async () => {
        const start = await store.headPosition();
        await store.append(
          `${prefix}-a`,
          [{ type: 'Opened', data: { name: 'x', tags: ['a'], skipped: undefined }, schemaVersion: 2, metadata: { user_id: 7 } }],
          'no_stream',
        );
        await store.append(`${prefix}-a`, [{ type: 'Closed', data: {} }], 0);
        const all = ours(await store.readAll(start, 1000));
        expect(all).toEqual(await store.readStream(`${prefix}-a`));
        expect(all[0].data).toEqual({ name: 'x', tags: ['a'] });
        expect(Object.keys(all[0].data)).toEqual(['name', 'tags']);
      });

      it('reads events appended through another connection, before and after its own', async () => {
        const start = await store.headPosition();
        const other = await open();
        await store.append(`${prefix}-a`, [{ type: 'Mine', data: { n: 1 } }], 'no_stream');
        await other.append(`${prefix}-b`, [{ type: 'Theirs', data: { n: 2 } }], 'no_stream');
        expect(ours(await store.readAll(start, 1000)).map((e) => e.data.n)).toEqual([1, 2]);
        await store.append(`${prefix}-a`, [{ type: 'Mine', data: { n: 3 } }], 0);
        const all = ours(await store.readAll(start, 1000));
        expect(all.map((e) => e.data.n)).toEqual([1, 2, 3]);
        expect(ours(await store.readAll(all[0].position, 1000, ['Theirs'])).map((e) => e.data.n)).toEqual([2]);
      });

      it('pages with maxCount', async () => {
        const start = await store.headPosition();
        await store.append(
          `${prefix}-a`,
          [1, 2, 3, 4, 5].map((n) => ({ type: 'N', data: { n } })),
          'no_stream',
        );
        const page1 = await store.readAll(start, 2);
        expect(page1).toHaveLength(2);
        const page2 = await store.readAll(page1[1].position, 2);
        expect(ours([...page1, ...page2]).map((e) => e.data.n)).toEqual([1, 2, 3, 4]);
      });

      it('reads a stream from where it was truncated, never further back; its events stay in the log', async () => {
        const start = await store.headPosition();
        await store.append(
          `${prefix}-t`,
          [0, 1, 2, 3, 4].map((n) => ({ type: 'N', data: { n } })),
          'no_stream',
        );
        await store.truncateBefore(`${prefix}-t`, 3);
        expect((await store.readStream(`${prefix}-t`)).map((e) => e.revision)).toEqual([3, 4]);
        expect((await store.readStream(`${prefix}-t`, 4)).map((e) => e.revision)).toEqual([4]);
        await store.truncateBefore(`${prefix}-t`, 1);
        expect((await store.readStream(`${prefix}-t`)).map((e) => e.revision)).toEqual([3, 4]);
        await store.append(`${prefix}-t`, [{ type: 'N', data: { n: 5 } }], 4);
        expect((await store.readStream(`${prefix}-t`)).map((e) => e.revision)).toEqual([3, 4, 5]);
        expect(ours(await store.readAll(start, 1000)).map((e) => e.data.n)).toEqual([0, 1, 2, 3, 4, 5]);
      });

      it('reads the event at a position, events of one append among others (a parked event is retried so)', async () => {
        const start = await store.headPosition();
        await store.append(
          `${prefix}-a`,
          [1, 2, 3].map((n) => ({ type: 'N', data: { n } })),
          'no_stream',
        );
        const all = ours(await store.readAll(start, 1000));
        for (const event of all) expect(await store.readAt(event.position)).toEqual(event);
        expect(await store.readAt((await store.headPosition()) + 1_000_000)).toBeNull();
      });
    });

    subscriptionCases({ store: () => store, prefix: () => prefix, open });
  });
}
