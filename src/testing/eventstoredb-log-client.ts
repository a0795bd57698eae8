import {
  AllStreamResolvedEvent,
  AppendToStreamOptions,
  EventData,
  Filter,
  ReadAllOptions,
  ReadStreamOptions,
  StreamNotFoundError,
  SubscribeToAllOptions,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { EventEmitter } from 'node:events';
import { Readable, Transform, TransformCallback } from 'node:stream';

export type LogEntry = { streamId: string; type: string; isJson: boolean };

/** What the server sends on a subscription: an event, or how far its filter has read. */
type ServerMessage = { event: AllStreamResolvedEvent } | { checkpoint: { commit: bigint; prepare: bigint } } | { caughtUp: true };

/** Events the server's filter reads between two checkpoints, per unit of `checkpointInterval` (its search window). */
const SEARCH_WINDOW = 32;

export const ownEntry = (n: number, type = 'OrderPlaced'): LogEntry => ({ streamId: `order-${n}`, type, isJson: true });
/** The server's own events and the links its standard projections write, alternating. */
export const systemEntries = (count: number): LogEntry[] =>
  Array.from({ length: count }, (_, i) =>
    i % 2 ? { streamId: '$stats-127.0.0.1:2113', type: '$statsCollected', isJson: true } : { streamId: '$ce-order', type: '$>', isJson: false },
  );

/**
 * `$all` as the EventStoreDB client reads it, for the adapter's specs: reads follow the client's
 * rules (START and END, forwards or backwards, a position read forwards is included, `maxCount`,
 * consumed lazily); subscriptions follow the server and the client's `Subscription` (6.x): the
 * server starts after the position, drops what the filter refuses, sends a checkpoint each
 * `checkpointInterval` search windows of 32 events read, says once it has caught up with the
 * end, then follows appends; the client is an
 * object-mode Transform piped from the server's stream, which awaits `checkpointReached` with
 * itself and the position, so a slow reader holds the server back.
 */
export class LogClient {
  /** Entries handed out by reads, and entries read by subscriptions' filters. */
  consumed = 0;
  scanned = 0;
  readonly subscriptions: Array<{ options: SubscribeToAllOptions; drop(error: Error): void }> = [];
  disposed = false;
  private readonly log: AllStreamResolvedEvent[] = [];
  private readonly appended = new EventEmitter();

  /** `sendsCaughtUp: false` plays a server older than 23.10, which never says it caught up. */
  constructor(
    entries: LogEntry[],
    private readonly options: { sendsCaughtUp?: boolean } = {},
  ) {
    this.appended.setMaxListeners(0);
    entries.forEach((entry) => this.append(entry));
  }

  /** Appends an entry; its position is 100 times its place in the log. */
  append({ streamId, type, isJson }: LogEntry, data?: unknown, metadata: unknown = {}): number {
    const i = this.log.length;
    const position = { commit: BigInt((i + 1) * 100), prepare: BigInt((i + 1) * 100) };
    const revision = BigInt(this.streamOf(streamId).length);
    const event = {
      streamId,
      id: `id-${i}`,
      revision,
      type,
      data: data ?? (isJson ? { n: i } : '0@order-1'),
      metadata,
      isJson,
      created: new Date(0),
      position,
    };
    this.log.push({ event, commitPosition: position.commit } as unknown as AllStreamResolvedEvent);
    this.appended.emit('entry');
    return (i + 1) * 100;
  }

  /** As the server appends: all or nothing, at the stream's expected revision. */
  async appendToStream(streamName: string, events: EventData | EventData[], { expectedRevision = 'any' }: AppendToStreamOptions = {}) {
    const current = this.streamOf(streamName).length - 1;
    const ok =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' ? current === -1 : expectedRevision === 'stream_exists' ? current >= 0 : BigInt(current) === expectedRevision);
    if (!ok) throw new WrongExpectedVersionError(undefined, { streamName, expected: expectedRevision, current: current < 0 ? 'no_stream' : BigInt(current) });
    let position = 0;
    for (const event of [events].flat()) {
      const isJson = event.contentType === 'application/json';
      const data = isJson ? event.data : Buffer.from(event.data as Uint8Array).toString('utf8');
      position = this.append({ streamId: streamName, type: event.type, isJson }, data, event.metadata ?? {});
    }
    const nextExpectedRevision = BigInt(this.streamOf(streamName).length - 1);
    return { success: true, nextExpectedRevision, position: { commit: BigInt(position), prepare: BigInt(position) } };
  }

  /** As the client reads a stream: StreamNotFoundError for none, links (`$>`, data `revision@stream`) resolved when asked. */
  readStream(
    streamName: string,
    { fromRevision = 'start', direction = 'forwards', maxCount = Number.MAX_SAFE_INTEGER, resolveLinkTos = false }: ReadStreamOptions = {},
  ): AsyncIterable<{ event?: AllStreamResolvedEvent['event']; link?: AllStreamResolvedEvent['event'] }> {
    const stream = this.streamOf(streamName);
    const resolve = (entry: AllStreamResolvedEvent) => {
      const link = entry.event!;
      if (!resolveLinkTos || link.type !== '$>') return { event: link };
      const [revision, target] = String(link.data).split('@');
      return { event: this.streamOf(target)[Number(revision)]?.event, link };
    };
    const count = () => this.consumed++;
    const metadata = this.metadata;
    return (async function* () {
      if (!stream.length) throw new StreamNotFoundError(undefined, streamName);
      // A read never reaches before `$tb`: the server starts there.
      const truncatedBefore = Number(metadata.get(streamName)?.truncateBefore ?? 0);
      const asked = fromRevision === 'start' ? 0 : fromRevision === 'end' ? stream.length - 1 : Number(fromRevision);
      const from = direction === 'forwards' ? Math.max(asked, truncatedBefore) : asked;
      const picked = direction === 'forwards' ? stream.slice(from) : stream.slice(0, from + 1).reverse();
      for (const entry of picked.slice(0, Number(maxCount))) {
        count();
        yield resolve(entry);
      }
    })();
  }

  private readonly metadata = new Map<string, Record<string, unknown>>();

  /** As the server keeps a stream's metadata (`$tb`, truncate before, among it). */
  async getStreamMetadata(streamName: string): Promise<{ streamName: string; metadata?: Record<string, unknown> }> {
    return { streamName, metadata: this.metadata.get(streamName) };
  }

  async setStreamMetadata(streamName: string, metadata: Record<string, unknown>): Promise<void> {
    this.metadata.set(streamName, metadata);
  }

  private streamOf(streamId: string): AllStreamResolvedEvent[] {
    return this.log.filter((e) => e.event!.streamId === streamId);
  }

  private async *lazily(entries: AllStreamResolvedEvent[]): AsyncIterable<AllStreamResolvedEvent> {
    for (const entry of entries) {
      this.consumed++;
      yield entry;
    }
  }

  /**
   * As the server judges a position to read from: START, END, the end of the log, or one a record
   * starts at; any other (inside a record) is refused with InvalidPosition
   * (EventStore's `TFChunkReader`: "Invalid position", as the server answers a read from it).
   */
  private boundary(fromPosition: ReadAllOptions['fromPosition']): void {
    if (fromPosition === undefined || fromPosition === 'start' || fromPosition === 'end') return;
    const end = BigInt((this.log.length + 1) * 100);
    const starts = this.log.some((e) => e.event!.position.commit === fromPosition.commit && e.event!.position.prepare === fromPosition.prepare);
    if (!starts && !(fromPosition.commit >= end - 100n)) throw new Error(`InvalidPosition: no record starts at ${fromPosition.commit}/${fromPosition.prepare}`);
  }

  readAll({ fromPosition = 'start', direction = 'forwards', maxCount = Number.MAX_SAFE_INTEGER }: ReadAllOptions = {}): AsyncIterable<AllStreamResolvedEvent> {
    this.boundary(fromPosition);
    const at = (e: AllStreamResolvedEvent) => e.event!.position.commit;
    const entries =
      direction === 'forwards'
        ? this.log.filter((e) => fromPosition === 'start' || (fromPosition !== 'end' && at(e) >= fromPosition.commit))
        : this.log.filter((e) => fromPosition === 'end' || (fromPosition !== 'start' && at(e) <= fromPosition.commit)).reverse();
    return this.lazily(entries.slice(0, Number(maxCount)));
  }

  /** How many events a stream holds (for tests). */
  streamLength(stream: string): number {
    return this.streamOf(stream).length;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  subscribeToAll(options: SubscribeToAllOptions = {}, readableOptions: { highWaterMark?: number } = {}) {
    const { fromPosition = 'start', filter } = options;
    this.boundary(fromPosition);
    const start =
      fromPosition === 'start' ? 0 : fromPosition === 'end' ? this.log.length : this.log.findIndex((e) => e.event!.position.commit > fromPosition.commit);
    const server = Readable.from(this.serve(start < 0 ? this.log.length : start, filter), { objectMode: true, highWaterMark: 1 });
    const client = new ClientSubscription(filter?.checkpointReached, readableOptions.highWaterMark);
    server.pipe(client);
    const drop = (error: Error) => {
      server.destroy();
      client.destroy(error);
    };
    this.subscriptions.push({ options, drop });
    client.unsubscribeWith(() => server.destroy());
    return client;
  }

  /** The server's side: read the log from `index` on through the filter, then wait for appends. */
  private async *serve(index: number, filter?: Filter): AsyncGenerator<ServerMessage> {
    const matches = (e: AllStreamResolvedEvent) => {
      if (!filter) return true;
      const subject = filter.filterOn === 'eventType' ? e.event!.type : e.event!.streamId;
      return 'regex' in filter ? new RegExp(filter.regex).test(subject) : filter.prefixes.some((p) => subject.startsWith(p));
    };
    const window = SEARCH_WINDOW * (filter?.checkpointInterval ?? 1);
    let read = 0;
    let caughtUp = false;
    for (;;) {
      while (index < this.log.length) {
        const entry = this.log[index++];
        this.scanned++;
        read++;
        if (matches(entry)) yield { event: entry };
        // A checkpoint through a filtered stretch names the commit position, its prepare position 0
        // (as the review of the server's filtered reads found): a client must not read the prepare alone.
        if (filter && read % window === 0) yield { checkpoint: { commit: entry.event!.position.commit, prepare: 0n } };
      }
      // Once, when it first reaches the end of the log (EventStoreDB 23.10 and later).
      if (!caughtUp && this.options.sendsCaughtUp !== false) yield { caughtUp: (caughtUp = true) };
      await new Promise((resolve) => this.appended.once('entry', resolve));
    }
  }
}

/** The client's `Subscription`: awaits `checkpointReached` with itself, passes events on. */
class ClientSubscription extends Transform {
  private onUnsubscribe = () => {};

  constructor(
    private readonly checkpointReached: Filter['checkpointReached'],
    highWaterMark?: number,
  ) {
    super({ objectMode: true, highWaterMark });
  }

  unsubscribeWith(stop: () => void): void {
    this.onUnsubscribe = stop;
  }

  override async _transform(message: ServerMessage, _encoding: BufferEncoding, next: TransformCallback): Promise<void> {
    if ('caughtUp' in message) {
      this.emit('caughtUp');
      return next();
    }
    if ('checkpoint' in message) {
      await this.checkpointReached?.(this as never, message.checkpoint);
      return next();
    }
    next(null, message.event);
  }

  async unsubscribe(): Promise<void> {
    this.onUnsubscribe();
    this.end();
  }
}
