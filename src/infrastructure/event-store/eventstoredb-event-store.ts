import {
  ANY,
  BACKWARDS,
  AllStreamResolvedEvent,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  ResolvedEvent,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@eventstore/db-client';
import { EventEmitter } from 'node:events';
import { ConcurrencyError } from '../../shared/ports/event-store.errors';
import {
  AppendResult,
  EventHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../../shared/ports/event-store.port';
import { catchUpSubscription } from './eventstoredb-catch-up';
import { IdBlocks, LastOfStream } from './id-blocks';
import { CorrelationTrail, TRAIL_STREAM_PREFIX } from './eventstoredb-trail';
import { FilteredReads } from './eventstoredb-filtered-reads';

/**
 * EventStoreDB adapter. Global positions are the events' prepare positions in the
 * transaction log: unique per event and growing in `$all` order. Reading "after" a
 * position starts at that log position and drops what is not past it.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly signals = new EventEmitter();
  private liveFeed?: ReturnType<EventStoreDBClient['subscribeToAll']>;
  private readonly trail: CorrelationTrail;
  private readonly filtered: FilteredReads;
  private readonly ids = new IdBlocks({ last: (stream) => this.lastOf(stream), append: (stream, events, expected) => this.append(stream, events, expected) });

  constructor(connection: string | EventStoreDBClient) {
    this.client = typeof connection === 'string' ? EventStoreDBClient.connectionString(connection) : connection;
    this.filtered = new FilteredReads(this.client, ownEvent, () => this.headPosition());
    this.trail = new CorrelationTrail(this.client, (after, max) => this.readAll(after, max), toRecorded);
    this.signals.setMaxListeners(0);
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const now = new Date().toISOString();
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((event) =>
          jsonEvent({
            type: event.type,
            data: (event.data ?? {}) as Record<string, unknown>,
            metadata: {
              ...event.metadata,
              occurred_at: event.metadata?.occurred_at ?? now,
              schema_version: event.schemaVersion ?? 1,
            },
          }),
        ),
        { expectedRevision: expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : BigInt(expected) },
      );
      return {
        revision: Number(result.nextExpectedRevision),
        position: Number(result.position?.commit ?? 0n),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : 'no_stream';
        throw new ConcurrencyError(stream, expected, actual);
      }
      throw error;
    }
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, {
        fromRevision: fromRevision === 0 ? START : BigInt(fromRevision),
        direction: FORWARDS,
      })) {
        const recorded = toRecorded(resolved);
        if (recorded) out.push(recorded);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  /**
   * Without types (the projections, the trail index): a catch-up subscription filtered by the
   * server to the service's event types, taken until it has a page or reaches the head read
   * first, so the server's own events are never sent. With types: `$all` read as a stream and
   * the others passed over here, however many follow each other (the 6.x client has no
   * server-side filter on reads); a page is short only at the end of the log either way.
   */
  async readAll(afterPosition: number, maxCount: number, types?: readonly string[]): Promise<RecordedEvent[]> {
    if (maxCount <= 0) return [];
    if (!types) return this.filtered.read(afterPosition, maxCount);
    const from = afterPosition === 0 ? START : { commit: BigInt(afterPosition), prepare: BigInt(afterPosition) };
    const wanted = new Set(types);
    const out: RecordedEvent[] = [];
    for await (const resolved of this.client.readAll({ fromPosition: from, direction: FORWARDS })) {
      const recorded = ownEvent(resolved);
      if (recorded && recorded.position > afterPosition && wanted.has(recorded.type)) out.push(recorded);
      if (out.length === maxCount) break;
    }
    return out;
  }

  /** The stream's `$tb` (truncate before): reads of it start there; a scavenge may drop what is before. */
  async truncateBefore(stream: string, revision: number): Promise<void> {
    const { metadata } = await this.client.getStreamMetadata(stream);
    if (Number(metadata?.truncateBefore ?? -1) >= revision) return;
    await this.client.setStreamMetadata(stream, { ...metadata, truncateBefore: revision });
  }

  /** Read from the event's own position, a record boundary the server takes (positions are prepare positions). */
  async readAt(position: number): Promise<RecordedEvent | null> {
    const from = { commit: BigInt(position), prepare: BigInt(position) };
    for await (const resolved of this.client.readAll({ fromPosition: from, direction: FORWARDS, maxCount: 1 })) {
      const recorded = ownEvent(resolved);
      return recorded && recorded.position === position ? recorded : null;
    }
    return null;
  }

  /** From the trail index the service keeps (see CorrelationTrail): no server-side projection is needed. */
  async readCorrelated(correlationId: string, afterPosition: number, maxCount: number): Promise<RecordedEvent[]> {
    await this.trail.catchUp(await this.headPosition());
    return this.trail.read(correlationId, afterPosition, maxCount);
  }

  /** The newest event of the service's own, however many system events follow it. */
  async headPosition(): Promise<number> {
    for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS })) {
      const recorded = ownEvent(resolved);
      if (recorded) return recorded.position;
    }
    return 0;
  }

  /** A catch-up subscription filtered by the server (see catchUpSubscription). */
  subscribeToAll(afterPosition: number, handler: EventHandler, options?: SubscribeOptions): Subscription {
    return catchUpSubscription(this.client, afterPosition, handler, ownEvent, options);
  }

  watch(listener: (types?: readonly string[]) => void): () => void {
    this.signals.on('appended', listener);
    this.startLiveFeed();
    return () => {
      this.signals.off('appended', listener);
    };
  }

  /** From blocks reserved by one append each (see IdBlocks). */
  nextId(sequence: string): Promise<number> {
    return this.ids.next(sequence);
  }

  async ping(): Promise<void> {
    await this.headPosition();
  }

  async close(): Promise<void> {
    this.signals.removeAllListeners();
    await this.filtered.close();
    await this.liveFeed?.unsubscribe().catch(() => undefined);
    await this.client.dispose();
  }

  private async lastOf(stream: string): Promise<LastOfStream | null> {
    try {
      for await (const resolved of this.client.readStream(stream, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
        const event = resolved.event!;
        return { revision: Number(event.revision), type: event.type, data: event.data as LastOfStream['data'] };
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
    return null;
  }

  /** A live subscription used only as a doorbell: readers then pull with `readAll`. */
  private startLiveFeed() {
    if (this.liveFeed) return;
    this.liveFeed = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    this.liveFeed.on('data', (resolved: AllStreamResolvedEvent) => {
      this.signals.emit('appended', resolved.event ? [resolved.event.type] : undefined);
      // The history's index follows the appends, so a history request finds little left to index.
      if (resolved.event?.metadata && typeof (resolved.event.metadata as Record<string, unknown>).$correlationId === 'string')
        this.trail.nudge(() => this.headPosition());
    });
    this.liveFeed.on('error', () => {
      this.liveFeed = undefined;
      setTimeout(() => this.signals.listenerCount('appended') > 0 && this.startLiveFeed(), 1000).unref();
    });
  }
}

/** An event of the service's: not one of the server's system streams (`$…`), nor a link, nor the trail index's. */
function ownEvent(resolved: AllStreamResolvedEvent): RecordedEvent | null {
  const recorded = toRecorded(resolved);
  return recorded && !recorded.stream.startsWith('$') && !recorded.type.startsWith('$') && !recorded.stream.startsWith(TRAIL_STREAM_PREFIX) ? recorded : null;
}

function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || !event.isJson) return null;
  const metadata = (event.metadata ?? {}) as Record<string, unknown>;
  const { schema_version, ...rest } = metadata;
  return {
    id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position: Number(event.position?.prepare ?? 0n),
    type: event.type,
    schemaVersion: typeof schema_version === 'number' ? schema_version : 1,
    data: event.data,
    metadata: rest,
    occurredAt: typeof rest.occurred_at === 'string' ? rest.occurred_at : event.created.toISOString(),
  };
}
