import { RecordedEvent } from '../../shared/ports/event-store.port';
import { pullSubscription } from './pull-subscription';

/** An in-memory log with the three calls a pull subscription makes, counting its reads. */
function memoryLog() {
  const events: RecordedEvent[] = [];
  let listener: ((types?: readonly string[]) => void) | undefined;
  const log = {
    reads: 0,
    append(type: string, announce: readonly string[] | undefined = [type]) {
      const position = events.length + 1;
      events.push({ id: String(position), stream: 's', revision: position - 1, position, type, schemaVersion: 1, data: {}, metadata: {}, occurredAt: '' });
      listener?.(announce);
    },
    store: {
      readAll: async (after: number, max: number, types?: readonly string[]) => {
        log.reads += 1;
        return events.filter((e) => e.position > after && (!types || types.includes(e.type))).slice(0, max);
      },
      headPosition: async () => events.length,
      watch: (l: (types?: readonly string[]) => void) => {
        listener = l;
        return () => (listener = undefined);
      },
    },
  };
  return log;
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('pullSubscription wake-ups', () => {
  it('given a typed subscription asleep, when other types are appended, then it does not read', async () => {
    const log = memoryLog();
    const seen: string[] = [];
    const sub = pullSubscription(log.store, 0, (e) => void seen.push(e.type), { types: ['Wanted'] }, 60_000);
    await settle();
    const readsAsleep = log.reads;
    for (let i = 0; i < 50; i++) log.append('Other');
    await settle();
    expect(log.reads).toBe(readsAsleep);

    log.append('Wanted');
    await settle();
    expect(seen).toEqual(['Wanted']);
    expect(log.reads).toBeGreaterThan(readsAsleep);
    await sub.stop();
  });

  it('given appends whose types the store does not know, then every subscription reads', async () => {
    const log = memoryLog();
    const seen: string[] = [];
    const sub = pullSubscription(log.store, 0, (e) => void seen.push(e.type), { types: ['Wanted'] }, 60_000);
    await settle();
    log.append('Wanted', undefined);
    await settle();
    expect(seen).toEqual(['Wanted']);
    await sub.stop();
  });

  it('given an append landing while it reads (before it sleeps), then it reads again instead of sleeping through it', async () => {
    const log = memoryLog();
    const seen: string[] = [];
    const read = log.store.readAll;
    let raced = false;
    log.store.readAll = async (after, max, types) => {
      const page = await read(after, max, types);
      if (!raced && page.length === 0) {
        raced = true;
        log.append('Wanted'); // after this read was taken, before the subscription sleeps
      }
      return page;
    };
    const sub = pullSubscription(log.store, 0, (e) => void seen.push(e.type), { types: ['Wanted'] }, 60_000);
    try {
      await settle();
      expect(raced).toBe(true);
      expect(seen).toEqual(['Wanted']);
    } finally {
      await sub.stop();
    }
  });

  it('given an untyped subscription, then any append wakes it', async () => {
    const log = memoryLog();
    const seen: string[] = [];
    const sub = pullSubscription(log.store, 0, (e) => void seen.push(e.type), {}, 60_000);
    await settle();
    log.append('Anything');
    await settle();
    expect(seen).toEqual(['Anything']);
    await sub.stop();
  });
});

describe('pullSubscription delivery', () => {
  it('given a handler failing at once or later, then it gets the same event again until it takes it, and none after it before', async () => {
    const log = memoryLog();
    for (const type of ['A', 'B', 'C']) log.append(type);
    const tries: string[] = [];
    const failures: string[] = [];
    const failOnce = new Set(['A', 'B']);
    const handler = (event: RecordedEvent) => {
      tries.push(event.type);
      const fail = failOnce.delete(event.type);
      // A synchronous handler throwing, and an asynchronous one refusing, are both tried again.
      if (fail && event.type === 'A') throw new Error('A failed');
      if (fail) return Promise.reject(new Error('B failed'));
      return event.type === 'C' ? Promise.resolve() : undefined;
    };
    const sub = pullSubscription(log.store, 0, handler, { retryDelayMs: 5, onError: (error) => failures.push((error as Error).message) }, 60_000);
    await settle();
    expect(tries).toEqual(['A', 'A', 'B', 'B', 'C']);
    expect(failures).toEqual(['A failed', 'B failed']);
    expect(sub.position).toBe(3);
    await sub.stop();
  });
});
