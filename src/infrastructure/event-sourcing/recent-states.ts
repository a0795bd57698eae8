import { LRUCache } from 'lru-cache';
import { roughSize } from '../../shared/rough-size';

interface Known {
  decider: object;
  state: unknown;
  revision: number;
  organisationId?: number;
  /** The key id of the person the stream is about (docs/privacy.md), if it is about one. */
  subject?: string;
}

/**
 * The states that commands last left streams in, by stream, the least recently used dropped
 * first. A call's stream is written several times within a second (opened, three statuses, its
 * outcome), and so is the lead that claimed it: each command after the first decides from here
 * instead of reading and folding the stream again. Nothing here is trusted on its own: the
 * append's expected revision proves the state was current, and the runner reads the stream
 * before it accepts a refusal or an empty decision.
 */
export class RecentStates {
  private readonly known: LRUCache<string, Known>;

  /**
   * Streams written within the last several seconds of dialing stay: a campaign's call slots are
   * written at each of its attempts, between which every other campaign's calls and leads come
   * (with 300 campaigns, 1,024 dropped each slots stream before its next turn, read whole again).
   * The states' size is bounded too: a call's state holds its lead's variables, which a user may
   * make a megabyte each.
   */
  constructor(capacity = 8192, maxBytes = 64 * 1024 * 1024) {
    this.known = new LRUCache({ max: capacity, maxSize: maxBytes, sizeCalculation: (known) => roughSize(known.state) });
  }

  get<State>(stream: string, decider: object): { state: State; revision: number; organisationId?: number; subject?: string } | undefined {
    const known = this.known.get(stream);
    return known?.decider === decider
      ? { state: known.state as State, revision: known.revision, organisationId: known.organisationId, subject: known.subject }
      : undefined;
  }

  /** A state read before a later one was remembered does not replace it. */
  remember(stream: string, decider: object, state: unknown, revision: number | null, organisationId?: number, subject?: string): void {
    if (revision === null) return void this.known.delete(stream);
    if ((this.known.peek(stream)?.revision ?? -1) > revision) return;
    this.known.set(stream, { decider, state, revision, organisationId, subject });
  }

  forget(stream: string): void {
    this.known.delete(stream);
  }
}
