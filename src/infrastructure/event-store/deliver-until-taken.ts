import { asSystem, organisationOf } from '../../shared/event-sourcing/actor';
import { EventHandler, RecordedEvent, SubscribeOptions } from '../../shared/ports/event-store.port';

/**
 * Hands an event to a subscription's handler until it takes it, waiting `retryDelayMs` after
 * each failure, so nothing is skipped; gives up only when the subscription stops. Answers the
 * handler's own promise, or nothing when it took the event at once: a subscription hands on
 * every event to each of its handlers, and most take them without a failure.
 */
export function deliverUntilTaken(
  handler: EventHandler,
  event: RecordedEvent,
  options: SubscribeOptions,
  sleep: (ms: number) => Promise<void>,
  stopped: () => boolean,
): Promise<void> | void {
  const again = (error: unknown) => retried(error, handler, event, options, sleep, stopped);
  try {
    const taken = handedOn(handler, event);
    return taken instanceof Promise ? taken.catch(again) : undefined;
  } catch (error) {
    return again(error);
  }
}

/** Whoever's append woke the subscription, its handlers act as the system (docs/teams.md), for the event's organisation. */
const handedOn = (handler: EventHandler, event: RecordedEvent) => asSystem(() => handler(event), organisationOf(event.metadata) ?? null);

async function retried(
  failure: unknown,
  handler: EventHandler,
  event: RecordedEvent,
  options: SubscribeOptions,
  sleep: (ms: number) => Promise<void>,
  stopped: () => boolean,
): Promise<void> {
  for (let error = failure; ;) {
    options.onError?.(error, event);
    if (stopped()) return;
    await sleep(options.retryDelayMs ?? 1000);
    if (stopped()) return;
    try {
      await handedOn(handler, event);
      return;
    } catch (next) {
      error = next;
    }
  }
}
