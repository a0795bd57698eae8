import { ConcurrencyError } from '../../shared/ports/event-store.errors';
import { EventStore, RecordedEvent } from '../../shared/ports/event-store.port';

/** What the event store contract's cases share: the store of the case, its streams' prefix, and more stores on the same storage. */
export interface EventStoreCase {
  store(): EventStore;
  prefix(): string;
  open(): Promise<EventStore>;
}

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** The event store contract's subscriptions, id sequences and durability (see eventStoreContract). */
export function subscriptionCases(t: EventStoreCase) {
  let store: EventStore;
  let prefix: string;
  const { open } = t;
  beforeEach(() => {
    store = t.store();
    prefix = t.prefix();
  });

  describe('subscriptions', () => {
    it('hands over only the asked types, and moves past a stretch of others', async () => {
      const start = await store.headPosition();
      await store.append(`${prefix}-t`, [{ type: 'Keep', data: { n: 1 } }, ...Array.from({ length: 300 }, () => ({ type: 'Skip', data: {} }))], 'no_stream');
      const head = await store.headPosition();
      const seen: number[] = [];
      const sub = store.subscribeToAll(start, (e) => void (e.stream.startsWith(prefix) && seen.push(e.data.n)), { types: ['Keep'], batchSize: 10 });
      await until(() => seen.length === 1 && sub.position >= head);
      await store.append(
        `${prefix}-t`,
        [
          { type: 'Skip', data: {} },
          { type: 'Keep', data: { n: 2 } },
        ],
        300,
      );
      await until(() => seen.length === 2);
      expect(seen).toEqual([1, 2]);
      await sub.stop();
    });

    it('catches up from a checkpoint, then follows new events one at a time', async () => {
      await store.append(`${prefix}-a`, [{ type: 'Before', data: {} }], 'no_stream');
      const checkpoint = await store.headPosition();
      await store.append(
        `${prefix}-a`,
        [
          { type: 'Missed1', data: {} },
          { type: 'Missed2', data: {} },
        ],
        0,
      );
      const seen: string[] = [];
      let inHandler = 0;
      let maxInHandler = 0;
      const sub = store.subscribeToAll(checkpoint, async (e) => {
        inHandler += 1;
        maxInHandler = Math.max(maxInHandler, inHandler);
        await new Promise((r) => setTimeout(r, 2));
        if (e.stream.startsWith(prefix)) seen.push(e.type);
        inHandler -= 1;
      });
      await until(() => seen.length === 2);
      await store.append(`${prefix}-b`, [{ type: 'Live', data: {} }], 'no_stream');
      await until(() => seen.length === 3);
      await sub.stop();
      expect(seen).toEqual(['Missed1', 'Missed2', 'Live']);
      expect(maxInHandler).toBe(1);
    });

    it('resumes after a stop from the position it reached, losing and repeating nothing', async () => {
      const start = await store.headPosition();
      const seen: string[] = [];
      const collect = (e: RecordedEvent) => {
        if (e.stream.startsWith(prefix)) seen.push(e.type);
      };
      const first = store.subscribeToAll(start, collect);
      await store.append(`${prefix}-a`, [{ type: 'One', data: {} }], 'no_stream');
      await until(() => seen.length === 1);
      await first.stop();
      const checkpoint = first.position;
      await store.append(`${prefix}-a`, [{ type: 'Two', data: {} }], 0);
      const second = store.subscribeToAll(checkpoint, collect);
      await until(() => seen.length === 2);
      await second.stop();
      expect(seen).toEqual(['One', 'Two']);
    });

    it('offers an event again when the handler fails, and does not move past it', async () => {
      const start = await store.headPosition();
      let failures = 0;
      const seen: string[] = [];
      const sub = store.subscribeToAll(
        start,
        (e) => {
          if (!e.stream.startsWith(prefix)) return;
          if (e.type === 'Flaky' && failures < 2) {
            failures += 1;
            throw new Error('not yet');
          }
          seen.push(e.type);
        },
        { retryDelayMs: 10 },
      );
      await store.append(
        `${prefix}-a`,
        [
          { type: 'Flaky', data: {} },
          { type: 'After', data: {} },
        ],
        'no_stream',
      );
      await until(() => seen.length === 2);
      await sub.stop();
      expect(failures).toBe(2);
      expect(seen).toEqual(['Flaky', 'After']);
    });

    it('notices events appended through another connection to the same store', async () => {
      const start = await store.headPosition();
      const seen: string[] = [];
      const sub = store.subscribeToAll(start, (e) => {
        if (e.stream.startsWith(prefix)) seen.push(e.type);
      });
      const other = await open();
      await other.append(`${prefix}-x`, [{ type: 'FromElsewhere', data: {} }], 'no_stream');
      await until(() => seen.length === 1);
      await sub.stop();
      expect(seen).toEqual(['FromElsewhere']);
    });
  });

  describe('id sequences', () => {
    it('hands out unique positive integers per sequence, also to concurrent writers, growing within each', async () => {
      const other = await open();
      const seq = `${prefix}seq`;
      const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? other : store).nextId(seq)));
      expect(new Set(ids).size).toBe(40);
      expect(Math.min(...ids)).toBeGreaterThanOrEqual(1);
      const mine = ids.filter((_, i) => i % 2 === 0);
      expect(mine).toEqual([...mine].sort((a, b) => a - b));
      expect(await store.nextId(`${prefix}other`)).toBeGreaterThanOrEqual(1);
    });
  });

  describe('durability', () => {
    it('keeps every event and sequence across a restart', async () => {
      await store.append(
        `${prefix}-a`,
        [
          { type: 'A', data: { v: 1 } },
          { type: 'B', data: { v: 2 } },
        ],
        'no_stream',
      );
      const id = await store.nextId(`${prefix}seq`);
      const head = await store.headPosition();
      await store.close();

      const reopened = await open();
      expect((await reopened.readStream(`${prefix}-a`)).map((e) => e.data.v)).toEqual([1, 2]);
      expect(await reopened.headPosition()).toBeGreaterThanOrEqual(head);
      expect(await reopened.nextId(`${prefix}seq`)).toBeGreaterThan(id);
      await expect(reopened.append(`${prefix}-a`, [{ type: 'C', data: {} }], 0)).rejects.toBeInstanceOf(ConcurrencyError);
      expect((await reopened.append(`${prefix}-a`, [{ type: 'C', data: {} }], 1)).revision).toBe(2);
    });
  });
}
