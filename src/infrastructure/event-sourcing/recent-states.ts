interface Known {
  decider: object;
  state: unknown;
  revision: number;
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
  private readonly known = new Map<string, Known>();

  constructor(private readonly capacity = 1024) {}

  get<State>(stream: string, decider: object): { state: State; revision: number } | undefined {
    const known = this.known.get(stream);
    if (!known || known.decider !== decider) return undefined;
    this.known.delete(stream);
    this.known.set(stream, known);
    return { state: known.state as State, revision: known.revision };
  }

  /** A state read before a later one was remembered does not replace it. */
  remember(stream: string, decider: object, state: unknown, revision: number | null): void {
    const known = this.known.get(stream);
    if (known && revision !== null && known.revision > revision) return;
    this.known.delete(stream);
    if (revision === null) return;
    this.known.set(stream, { decider, state, revision });
    if (this.known.size > this.capacity) this.known.delete(this.known.keys().next().value!);
  }

  forget(stream: string): void {
    this.known.delete(stream);
  }
}
