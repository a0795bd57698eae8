interface Waiter {
  position: number;
  background: boolean;
  resolve: (ok: boolean) => void;
}

/**
 * The waits of read-your-writes (docs/dialing.md): each resolves true once the projections have
 * applied its position, false when its time runs out or the projections stop short of it.
 */
export class ProjectionWaiters {
  private waiters: Waiter[] = [];
  private reached = 0;

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
      const waiter: Waiter = {
        position,
        background,
        resolve: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
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
  }

  /** The projections stopped: every wait is answered with whether it was reached. */
  end(): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve(waiter.position <= this.reached);
  }
}
