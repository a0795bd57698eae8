import { yieldToIo } from '../../shared/yield-to-io';
import { deliverUntilTaken } from './deliver-until-taken';
import { EventHandler, EventStore, RecordedEvent, SubscribeOptions, Subscription } from '../../shared/ports/event-store.port';

const YIELD_EVERY_MS = 5;

/**
 * A subscription built on `readAll` and `watch`: reads a page, hands the events to the
 * handler one at a time (awaiting each, which is the backpressure), and sleeps until the
 * store signals new events. A failing handler gets the same event again after a delay,
 * so nothing is skipped.
 */
export function pullSubscription(
  store: Pick<EventStore, 'readAll' | 'watch' | 'headPosition'>,
  afterPosition: number,
  handler: EventHandler,
  options: SubscribeOptions = {},
  idlePollMs = 1000,
): Subscription {
  const batchSize = options.batchSize ?? 256;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  let position = afterPosition;
  let lastYield = performance.now();
  let stopped = false;
  let wake: (() => void) | undefined;
  /** Set by a signal that came while awake (reading or handling): the loop reads again instead of sleeping. */
  let signalled = false;
  // A typed subscription sleeps through appends of other types (each wake-up costs two reads).
  const wanted = options.types && new Set(options.types);
  const unwatch = store.watch((types) => {
    if (wanted && types && !types.some((type) => wanted.has(type))) return;
    signalled = true;
    wake?.();
  });

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const deliver = (event: RecordedEvent) => deliverUntilTaken(handler, event, options, sleep, () => stopped);

  const loop = (async () => {
    while (!stopped) {
      let page: RecordedEvent[];
      // A typed page shorter than asked holds every match up to the head read before it: the
      // stretch of other events is passed over once, not scanned again at every wake-up.
      let scannedTo = position;
      signalled = false;
      try {
        if (options.types) scannedTo = await store.headPosition();
        page = await store.readAll(position, batchSize, options.types);
      } catch (error) {
        options.onError?.(error);
        await sleep(retryDelayMs);
        continue;
      }
      const skipTo = options.types && page.length < batchSize ? scannedTo : position;
      if (page.length === 0) {
        position = Math.max(position, skipTo);
        if (!signalled) await sleep(idlePollMs);
        continue;
      }
      for (const event of page) {
        if (stopped) return;
        // Pending I/O runs at least every few milliseconds, however long the catch-up.
        if (performance.now() - lastYield > YIELD_EVERY_MS) {
          await yieldToIo();
          lastYield = performance.now();
        }
        const delivering = deliver(event);
        if (delivering) await delivering;
        if (stopped) return;
        position = event.position;
      }
      position = Math.max(position, skipTo);
    }
  })();

  return {
    get position() {
      return position;
    },
    async stop() {
      stopped = true;
      wake?.();
      unwatch();
      await loop.catch(() => undefined);
    },
  };
}
