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
import { SubjectOpening, sealedValuesIn, subjectKeysOf, withPersonalOpened, withPersonalOpenedNow } from '../../shared/sealing/personal-fields';
import { KEY_NOT_HELD } from '../../shared/sealing/sealed-values';

/** Reads the whole log in order, opened, elsewhere than on this thread (`OpenedReadAhead`). */
export interface OpenedReads {
  readAll(afterPosition: number, maxCount: number): Promise<RecordedEvent[]>;
  close(): Promise<void>;
}

/**
 * docs/privacy.md: the event store as every reader sees it (commands, projections, reactors,
 * history, audit): personal values opened under their subjects' keys, an erased subject's
 * `[erased]`. What is written is sealed by the command runner; the log itself holds only sealed values.
 * `ahead`: where a reader alone on the log (a rebuild) reads it whole, read and opened on another thread.
 */
export class OpeningEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly opening: SubjectOpening,
    private readonly ahead?: OpenedReads,
  ) {}

  /**
   * The event opened: at once when every key it needs is held, else once they are read. Each
   * event read is opened for each reader: most are opened at once, with no promise to wait on.
   */
  private open(event: RecordedEvent, found?: ReadonlySet<string>): RecordedEvent | Promise<RecordedEvent> {
    // A reader in the log's order drops an erased key where the erasure stands, before what follows.
    this.opening.forgetErasedIn(event);
    const now = withPersonalOpenedNow(event.type, event.data, this.opening, found);
    if (now !== KEY_NOT_HELD) return now === event.data ? event : { ...event, data: now };
    return withPersonalOpened(event.type, event.data, this.opening, found).then((data) => ({ ...event, data }));
  }

  private async openAll(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const found = events.map((event) => sealedValuesIn(event.type, event.data));
    if (events.length > 1) await this.opening.prefetch(found.flatMap(subjectKeysOf));
    const out: RecordedEvent[] = new Array(events.length);
    for (let i = 0; i < events.length; i++) {
      const opened = this.open(events[i], found[i]);
      out[i] = opened instanceof Promise ? await opened : opened;
    }
    return out;
  }

  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.inner.append(stream, events, expected);
  }

  async readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]> {
    return this.openAll(await this.inner.readStream(stream, fromRevision));
  }

  async readAll(afterPosition: number, maxCount: number, types?: readonly string[]): Promise<RecordedEvent[]> {
    if (this.ahead && !types) {
      const events = await this.ahead.readAll(afterPosition, maxCount);
      // This thread's keys, too, are let go where an erasure stands.
      for (const event of events) this.opening.forgetErasedIn(event);
      return events;
    }
    return this.openAll(await this.inner.readAll(afterPosition, maxCount, types));
  }

  async readAt(position: number): Promise<RecordedEvent | null> {
    const event = await this.inner.readAt(position);
    return event && (await this.open(event));
  }

  truncateBefore(stream: string, revision: number): Promise<void> {
    return this.inner.truncateBefore(stream, revision);
  }

  async readCorrelated(correlationId: string, afterPosition: number, maxCount: number): Promise<RecordedEvent[]> {
    return this.openAll(await this.inner.readCorrelated(correlationId, afterPosition, maxCount));
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  subscribeToAll(afterPosition: number, handler: EventHandler, options?: SubscribeOptions): Subscription {
    return this.inner.subscribeToAll(
      afterPosition,
      (event) => {
        const opened = this.open(event);
        return opened instanceof Promise ? opened.then(handler) : handler(opened);
      },
      options,
    );
  }

  watch(listener: (types?: readonly string[]) => void): () => void {
    return this.inner.watch(listener);
  }

  nextId(sequence: string): Promise<number> {
    return this.inner.nextId(sequence);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  async close(): Promise<void> {
    await this.ahead?.close();
    await this.inner.close();
  }
}
