import { asSystem, organisationOf } from '../../shared/event-sourcing/actor';
import { EventHandler, RecordedEvent, SubscribeOptions } from '../../shared/ports/event-store.port';

/**
 * Hands an event to a subscription's handler until it takes it, waiting `retryDelayMs` after
 * each failure, so nothing is skipped; gives up only when the subscription stops.
 */
export async function deliverUntilTaken(
  handler: EventHandler,
  event: RecordedEvent,
  options: SubscribeOptions,
  sleep: (ms: number) => Promise<void>,
  stopped: () => boolean,
): Promise<void> {
  for (;;) {
    try {
      // Whoever's append woke the subscription, its handlers act as the system (docs/teams.md), for the event's organisation.
      await asSystem(() => handler(event), organisationOf(event.metadata) ?? null);
      return;
    } catch (error) {
      options.onError?.(error, event);
      if (stopped()) return;
      await sleep(options.retryDelayMs ?? 1000);
      if (stopped()) return;
    }
  }
}
