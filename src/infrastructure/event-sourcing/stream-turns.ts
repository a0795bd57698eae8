/**
 * Commands on one stream in this process take turns: run at once, two would both read the same
 * revision and all but one would meet a conflict, be read and decided again (a call's dial
 * confirmation and its first reports arrive together: about one conflict a dial attempt). One
 * after the other, the second decides from what the first wrote. Other processes still meet
 * conflicts, which the expected revision catches as before.
 */
export class StreamTurns {
  private readonly last = new Map<string, Promise<void>>();

  take<R>(stream: string, work: () => Promise<R>): Promise<R> {
    const before = this.last.get(stream);
    const turn = before ? before.then(work) : work();
    // Settles once the turn has, whichever way: the stream is let go unless another turn waits.
    const over = () => {
      if (this.last.get(stream) === done) this.last.delete(stream);
    };
    const done: Promise<void> = turn.then(over, over);
    this.last.set(stream, done);
    return turn;
  }

  /** Streams with a command running or waiting (for tests). */
  get busy(): number {
    return this.last.size;
  }
}
