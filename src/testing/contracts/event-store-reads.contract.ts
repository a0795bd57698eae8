import { EventStore, RecordedEvent } from '../../shared/ports/event-store.port';
import { EventStoreCase } from './event-store-subscriptions.contract';

/** The event store contract's reads across streams: by correlation, every stream in order, by position (see eventStoreContract). */
export function readCases(t: EventStoreCase) {
  let store: EventStore;
  let prefix: string;
  const { open } = t;
  const ours = (events: RecordedEvent[]) => events.filter((e) => e.stream.startsWith(prefix));
  beforeEach(() => {
    store = t.store();
    prefix = t.prefix();
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
}
