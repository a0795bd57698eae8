import { RecordedEvent } from './event-store.port';

/**
 * The events this process committed last, in position order with no gap, kept parsed so the
 * subscriptions that follow the head (projections and every reactor, each reading each new
 * event) don't each read and parse it again. Events are frozen: every reader gets the same
 * objects.
 */
export class RecentEvents {
  private events: RecordedEvent[] = [];

  constructor(private readonly capacity = 2048) {}

  /** Events just committed, in position order; a gap (another writer's events) starts over. */
  remember(committed: readonly RecordedEvent[]): void {
    for (const event of committed) {
      const last = this.events[this.events.length - 1];
      if (last && last.position !== event.position - 1) this.events = [];
      this.events.push(deepFreeze(event));
    }
    if (this.events.length > 2 * this.capacity) this.events = this.events.slice(-this.capacity);
  }

  /**
   * What `readAll(afterPosition, maxCount, types)` answers, when it can be answered from here:
   * the kept events must reach back to the one after `afterPosition` and up to the stored
   * head (asked for only then); null otherwise.
   */
  read(afterPosition: number, maxCount: number, types: readonly string[] | undefined, storedHead: () => number): RecordedEvent[] | null {
    const first = this.events[0]?.position;
    if (first === undefined || afterPosition + 1 < first) return null;
    if (storedHead() !== this.events[this.events.length - 1].position) return null;
    const page: RecordedEvent[] = [];
    for (let i = afterPosition + 1 - first; i < this.events.length && page.length < maxCount; i++) {
      if (!types || types.includes(this.events[i].type)) page.push(this.events[i]);
    }
    return page;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
