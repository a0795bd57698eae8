import {
  AllStreamResolvedEvent,
  AllStreamSubscription,
  EventStoreDBClient,
  Position,
  START,
  eventTypeFilter,
  excludeSystemEvents,
} from '@eventstore/db-client';
import { Readable } from 'node:stream';
import { deliverUntilTaken } from './deliver-until-taken';
import { EventHandler, RecordedEvent, SubscribeOptions, Subscription } from '../../shared/ports/event-store.port';

/** The server reports how far its filter has read at least this often (in search windows of 32 events). */
const CHECKPOINT_EVERY_WINDOWS = 1;

/**
 * Where a checkpoint lets the position move: its prepare position, or its commit position when the
 * server sends the prepare as 0 (through filtered stretches). Either is a record boundary no later
 * than the next event's prepare position: an append's events share the commit position of its first.
 */
export const checkpointPosition = (at: Position): number => Number(at.prepare) || Number(at.commit);

/** A checkpoint the server sent, put among the events in the order it came. */
interface CheckpointMark {
  checkpoint: number;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A catch-up subscription to `$all` filtered by the server: on the event types asked for, else on
 * every type but the server's own (`$…`, which includes its projections' links). The handler gets
 * one event at a time and the next is read only once it is done (the stream's backpressure).
 * The position moves past each event handled and past each checkpoint the server sends while it
 * reads through events the filter drops, so no run of them, however long, holds it back. A
 * dropped connection is subscribed again from the position; a failing handler gets its event
 * again after `retryDelayMs`.
 */
export function catchUpSubscription(
  client: Pick<EventStoreDBClient, 'subscribeToAll'>,
  afterPosition: number,
  handler: EventHandler,
  toRecorded: (resolved: AllStreamResolvedEvent) => RecordedEvent | null,
  options: SubscribeOptions = {},
): Subscription {
  const retryDelayMs = options.retryDelayMs ?? 1000;
  let position = afterPosition;
  let stopped = false;
  let current: AllStreamSubscription | undefined;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const filter = () => {
    // Marked in the stream, not applied here: events before it may still wait in the buffer.
    const checkpointReached = (subscription: AllStreamSubscription, at: Position) =>
      void (subscription as unknown as Readable).push({ checkpoint: checkpointPosition(at) } satisfies CheckpointMark);
    const common = { checkpointInterval: CHECKPOINT_EVERY_WINDOWS, checkpointReached };
    return options.types ? eventTypeFilter({ regex: `^(${options.types.map(escapeRegex).join('|')})$`, ...common }) : excludeSystemEvents(common);
  };

  const deliver = (event: RecordedEvent) => deliverUntilTaken(handler, event, options, sleep, () => stopped);

  const loop = (async () => {
    while (!stopped) {
      const from = position === 0 ? START : { commit: BigInt(position), prepare: BigInt(position) };
      current = client.subscribeToAll({ fromPosition: from, filter: filter() }, { highWaterMark: options.batchSize ?? 256 });
      try {
        for await (const item of current as AsyncIterable<AllStreamResolvedEvent | CheckpointMark>) {
          if (stopped) break;
          if ('checkpoint' in item) {
            position = Math.max(position, item.checkpoint);
            continue;
          }
          const recorded = toRecorded(item);
          // The server starts after the position; an event at or before it is one handled already.
          if (!recorded || recorded.position <= position) continue;
          await deliver(recorded);
          if (stopped) break;
          position = recorded.position;
        }
      } catch (error) {
        if (!stopped) options.onError?.(error);
      } finally {
        await current.unsubscribe().catch(() => undefined);
      }
      // Dropped (or ended by the server): subscribed again from the position, after a pause.
      if (!stopped) await sleep(retryDelayMs);
    }
  })();

  return {
    get position() {
      return position;
    },
    async stop() {
      stopped = true;
      wake?.();
      await current?.unsubscribe().catch(() => undefined);
      await loop.catch(() => undefined);
    },
  };
}
