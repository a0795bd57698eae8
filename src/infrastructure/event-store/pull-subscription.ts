import { yieldToIo } from '../../shared/yield-to-io';
import { EventHandler, EventStore, RecordedEvent, SubscribeOptions, Subscription } from './event-store.port';

/**
 * A subscription built on `readAll` and `watch`: reads a page, hands the events to the
 * handler one at a time (awaiting each, which is the backpressure), and sleeps until the
 * store signals new events. A failing handler gets the same event again after a delay,
 * so nothing is skipped.
 */
export function pullSubscription(
  store: Pick<EventStore, 'readAll' | 'watch'>,
  afterPosition: number,
  handler: EventHandler,
  options: SubscribeOptions = {},
  idlePollMs = 1000,
): Subscription {
  const batchSize = options.batchSize ?? 256;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  let position = afterPosition;
  let stopped = false;
  let wake: (() => void) | undefined;
  const unwatch = store.watch(() => wake?.());

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

  const deliver = async (event: RecordedEvent) => {
    for (;;) {
      try {
        await handler(event);
        return;
      } catch (error) {
        options.onError?.(error, event);
        if (stopped) return;
        await sleep(retryDelayMs);
        if (stopped) return;
      }
    }
  };

  const loop = (async () => {
    while (!stopped) {
      let page: RecordedEvent[];
      try {
        page = await store.readAll(position, batchSize);
      } catch (error) {
        options.onError?.(error);
        await sleep(retryDelayMs);
        continue;
      }
      if (page.length === 0) {
        await sleep(idlePollMs);
        continue;
      }
      for (const event of page) {
        if (stopped) return;
        await yieldToIo();
        await deliver(event);
        if (stopped) return;
        position = event.position;
      }
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
