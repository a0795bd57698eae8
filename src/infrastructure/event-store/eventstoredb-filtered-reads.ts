import { AllStreamResolvedEvent, EventStoreDBClient, START, excludeSystemEvents } from '@eventstore/db-client';
import { Readable } from 'node:stream';
import { RecordedEvent } from '../../shared/ports/event-store.port';

/** A read that hears nothing for this long looks whether it has reached the head. */
const QUIET_MS = 500;
/** Subscriptions kept open between batches (the projections' reader, the trail's, a rebuild's). */
const KEPT = 4;

interface OpenRead {
  subscription: ReturnType<EventStoreDBClient['subscribeToAll']>;
  iterator: AsyncIterator<AllStreamResolvedEvent>;
  /** The next item asked for and not yet taken (a batch that stopped on a quiet moment leaves it). */
  pending?: Promise<IteratorResult<AllStreamResolvedEvent>>;
  caughtUp: boolean;
}

/**
 * `$all` read past a position a batch at a time, through server-filtered subscriptions kept open
 * between batches: a batch that asks from where the previous one ended goes on with its
 * subscription; any other position opens one. A batch ends with `max` events, or once the reader
 * has caught up (the server's `caughtUp`, EventStoreDB 23.10 and later, or quiet for QUIET_MS) and
 * the head is no further than what it read.
 */
export class FilteredReads {
  private readonly open = new Map<number, OpenRead>();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly ownEvent: (resolved: AllStreamResolvedEvent) => RecordedEvent | null,
    private readonly headPosition: () => Promise<number>,
  ) {}

  async read(afterPosition: number, maxCount: number): Promise<RecordedEvent[]> {
    const read = this.open.get(afterPosition) ?? this.subscribe(afterPosition);
    this.open.delete(afterPosition);
    const out: RecordedEvent[] = [];
    let last = afterPosition;
    try {
      while (out.length < maxCount) {
        const buffered = (read.subscription as unknown as Readable).readableLength > 0;
        if (read.caughtUp && !buffered && !read.pending && (await this.headPosition()) <= last) break;
        const next = await this.nextOrQuiet(read);
        if (next === 'quiet') {
          if ((await this.headPosition()) <= last) break;
          continue;
        }
        if (next.done) throw new Error('The subscription to $all ended');
        const recorded = this.ownEvent(next.value);
        if (recorded && recorded.position > last) {
          out.push(recorded);
          last = recorded.position;
        }
      }
    } catch (error) {
      await read.subscription.unsubscribe().catch(() => undefined);
      throw error;
    }
    this.keep(last, read);
    return out;
  }

  async close(): Promise<void> {
    const reads = [...this.open.values()];
    this.open.clear();
    await Promise.all(reads.map((read) => read.subscription.unsubscribe().catch(() => undefined)));
  }

  private subscribe(afterPosition: number): OpenRead {
    const from = afterPosition === 0 ? START : { commit: BigInt(afterPosition), prepare: BigInt(afterPosition) };
    const subscription = this.client.subscribeToAll({ fromPosition: from, filter: excludeSystemEvents() }, { highWaterMark: 1024 });
    const read: OpenRead = { subscription, iterator: (subscription as AsyncIterable<AllStreamResolvedEvent>)[Symbol.asyncIterator](), caughtUp: false };
    subscription.on('caughtUp', () => (read.caughtUp = true));
    return read;
  }

  private async nextOrQuiet(read: OpenRead): Promise<IteratorResult<AllStreamResolvedEvent> | 'quiet'> {
    const pending = (read.pending ??= read.iterator.next());
    let timer: NodeJS.Timeout | undefined;
    const quiet = new Promise<'quiet'>((resolve) => (timer = setTimeout(() => resolve('quiet'), QUIET_MS)));
    try {
      const next = await Promise.race([pending, quiet]);
      if (next !== 'quiet') read.pending = undefined;
      return next;
    } finally {
      clearTimeout(timer);
    }
  }

  private keep(position: number, read: OpenRead): void {
    const replaced = this.open.get(position);
    if (replaced) void replaced.subscription.unsubscribe().catch(() => undefined);
    this.open.set(position, read);
    while (this.open.size > KEPT) {
      const [oldest, dropped] = this.open.entries().next().value as [number, OpenRead];
      this.open.delete(oldest);
      void dropped.subscription.unsubscribe().catch(() => undefined);
    }
  }
}
