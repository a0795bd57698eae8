import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  ReadStreamOptions,
  ResolvedEvent,
  StreamNotFoundError,
  WrongExpectedVersionError,
  binaryEvent,
  jsonEvent,
} from '@eventstore/db-client';
import { LRUCache } from 'lru-cache';
import { RecordedEvent } from '../../shared/ports/event-store.port';

/** Streams the trail index writes: passed over wherever the service reads its own events. */
export const TRAIL_STREAM_PREFIX = 'trail-';
const CHECKPOINT_STREAM = `${TRAIL_STREAM_PREFIX}index-checkpoint`;
const PAGE = 500;

const trailOf = (correlationId: string) => `${TRAIL_STREAM_PREFIX}${correlationId}`;

type Client = Pick<EventStoreDBClient, 'readStream' | 'appendToStream'>;

/**
 * The correlation index EventStoreDB keeps only with its system projections on (`$bc-…`), kept by
 * the service instead: each event with a `$correlationId` gets a link (`$>`, which the server
 * resolves on reads without projections) in `trail-<correlationId>`, in the order of `$all`,
 * each link carrying its event's position. Links are appended with the trail's expected revision
 * and only past its last position, so instances indexing the same events write each link once.
 * Indexing follows appends in the background (`nudge`); a read first indexes what is left up to
 * the head, so the trail shows every event written before it.
 */
export class CorrelationTrail {
  private indexedTo = 0;
  private running?: Promise<void>;
  /** Each trail's last link as this process wrote or read it; a conflict sends it back to the store. */
  private readonly lastLinks = new LRUCache<string, { revision: number; position: number }>({ max: 10_000 });

  constructor(
    private readonly client: Client,
    private readonly ownEvents: (afterPosition: number, maxCount: number) => Promise<RecordedEvent[]>,
    private readonly toRecorded: (resolved: ResolvedEvent) => RecordedEvent | null,
  ) {}

  /** Indexes every event up to `head`; concurrent callers share the runs. */
  async catchUp(head: number): Promise<void> {
    while (this.indexedTo < head) {
      const before = this.indexedTo;
      await (this.running ??= this.index().finally(() => (this.running = undefined)));
      if (this.indexedTo === before) return;
    }
  }

  /** Indexes in the background what was appended since (the store's live feed calls it); failures are left to the next nudge or read. */
  nudge(head: () => Promise<number>): void {
    if (this.running) return;
    void head()
      .then((position) => this.catchUp(position))
      .catch(() => undefined);
  }

  /** Up to `maxCount` events of the trail after `afterPosition`, found by halving the trail's revisions, then read resolved. */
  async read(correlationId: string, afterPosition: number, maxCount: number): Promise<RecordedEvent[]> {
    const stream = trailOf(correlationId);
    const last = await this.linkAt(stream, 'end');
    if (!last || last.position <= afterPosition || maxCount <= 0) return [];
    let low = 0;
    let high = last.revision;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if ((await this.linkAt(stream, middle))!.position > afterPosition) high = middle;
      else low = middle + 1;
    }
    const out: RecordedEvent[] = [];
    for await (const resolved of this.client.readStream(stream, { fromRevision: BigInt(low), direction: FORWARDS, maxCount, resolveLinkTos: true })) {
      const recorded = this.toRecorded(resolved);
      if (recorded) out.push(recorded);
    }
    return out;
  }

  private async index(): Promise<void> {
    let from = Math.max(this.indexedTo, await this.checkpoint());
    for (;;) {
      const page = await this.ownEvents(from, PAGE);
      // One append per trail and page: an import of 100,000 leads into one campaign is 200 appends, not 100,000.
      const byTrail = new Map<string, RecordedEvent[]>();
      for (const event of page) {
        const correlationId = event.metadata.$correlationId;
        if (typeof correlationId === 'string') byTrail.set(trailOf(correlationId), [...(byTrail.get(trailOf(correlationId)) ?? []), event]);
      }
      for (const [stream, events] of byTrail) await this.link(stream, events);
      if (page.length) {
        from = this.indexedTo = page[page.length - 1].position;
        await this.client.appendToStream(CHECKPOINT_STREAM, jsonEvent({ type: 'TrailIndexed', data: { position: from } }), { expectedRevision: ANY });
      }
      if (page.length < PAGE) return;
    }
  }

  /** Links `events` (in `$all` order) past the trail's last link, in one append with its expected revision. */
  private async link(stream: string, events: RecordedEvent[]): Promise<void> {
    for (;;) {
      const last = this.lastLinks.get(stream) ?? (await this.linkAt(stream, 'end'));
      const fresh = events.filter((event) => !last || event.position > last.position);
      if (!fresh.length) return;
      try {
        const links = fresh.map((event) =>
          binaryEvent({ type: '$>', data: Buffer.from(`${event.revision}@${event.stream}`), metadata: { position: event.position } }),
        );
        await this.client.appendToStream(stream, links, { expectedRevision: last ? BigInt(last.revision) : NO_STREAM });
        this.lastLinks.set(stream, { revision: (last ? last.revision : -1) + fresh.length, position: fresh[fresh.length - 1].position });
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        this.lastLinks.delete(stream);
      }
    }
  }

  /** A link of the trail, unresolved: its revision and its event's position. */
  private async linkAt(stream: string, revision: number | 'end'): Promise<{ revision: number; position: number } | null> {
    const options: ReadStreamOptions =
      revision === 'end' ? { fromRevision: END, direction: BACKWARDS, maxCount: 1 } : { fromRevision: BigInt(revision), direction: FORWARDS, maxCount: 1 };
    try {
      for await (const resolved of this.client.readStream(stream, options)) {
        const link = resolved.event!;
        return { revision: Number(link.revision), position: Number((link.metadata as { position?: number }).position ?? 0) };
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
    return null;
  }

  private async checkpoint(): Promise<number> {
    try {
      for await (const resolved of this.client.readStream(CHECKPOINT_STREAM, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
        return Number((resolved.event!.data as { position?: number }).position ?? 0);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return 0;
      throw error;
    }
    return 0;
  }
}
