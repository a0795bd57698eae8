interface Waiter {
  position: number;
  background: boolean;
  /** performance.now() past which it is answered false. */
  deadline: number;
  resolve: (ok: boolean) => void;
}

/**
 * The waits of read-your-writes (docs/dialing.md): each resolves true once the projections have
 * applied its position, false when its time runs out or the projections stop short of it.
 */
export class ProjectionWaiters {
  private waiters: Waiter[] = [];
  private reached = 0;
  /** One timer, for the earliest deadline: nearly every wait is answered long before its own. */
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;

  /** The position every projection has applied up to. */
  get position(): number {
    return this.reached;
  }

  /** Whether an answer (not background work) waits: the projections then keep their batches short. */
  get requestWaits(): boolean {
    return this.waiters.some((w) => !w.background);
  }

  wait(position: number, timeoutMs: number, background: boolean): Promise<boolean> {
    if (position <= this.reached) return Promise.resolve(true);
    return new Promise((resolve) => {
      const deadline = performance.now() + timeoutMs;
      this.waiters.push({ position, background, deadline, resolve });
      if (deadline < this.timerAt) this.armFor(deadline);
    });
  }

  private armFor(deadline: number): void {
    clearTimeout(this.timer);
    this.timerAt = deadline;
    this.timer = setTimeout(() => this.expire(), Math.max(0, deadline - performance.now()));
  }

  /** The waits whose time ran out are answered false; the timer is set for the next deadline. */
  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    const expired = this.waiters.filter((w) => w.deadline <= now);
    this.waiters = this.waiters.filter((w) => w.deadline > now);
    for (const waiter of expired) waiter.resolve(false);
    this.rearm();
  }

  private rearm(): void {
    if (this.waiters.length === 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.timerAt = Infinity;
      return;
    }
    const next = Math.min(...this.waiters.map((w) => w.deadline));
    if (next !== this.timerAt) this.armFor(next);
  }

  /** A rebuild projects from the first event again: nothing counts as reached before it gets there. */
  startOver(): void {
    this.reached = 0;
  }

  /** The projections reached `position`: every wait up to it is answered. */
  advance(position: number): void {
    if (position > this.reached) this.reached = position;
    const ready = this.waiters.filter((w) => w.position <= this.reached);
    if (!ready.length) return;
    this.waiters = this.waiters.filter((w) => w.position > this.reached);
    for (const waiter of ready) waiter.resolve(true);
    this.rearm();
  }

  /** The projections stopped: every wait is answered with whether it was reached. */
  end(): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve(waiter.position <= this.reached);
    this.rearm();
  }
}
