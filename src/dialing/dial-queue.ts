import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { CallSpec } from '../calls/call.events';
import { CallPlacer } from './call-placer';
import { Dialer } from '../voice-runtimes/dialer.port';

interface Waiting {
  callId: number;
  spec: CallSpec;
}

/**
 * The dials of this process that wait to leave or are on the wire (docs/dialing.md): sent in
 * parallel, so a provider slow to accept one delays no other; bounded only by the dialer's own
 * limit of open requests, taken from each user's queue in turn when that limit binds. A dial
 * waiting here when the process dies is the resend sweep's: its call is unconfirmed.
 */
@Injectable()
export class DialQueue implements OnModuleDestroy {
  private readonly logger = new Logger('DialQueue');
  /** Each user's waiting dials, oldest first; the user served last goes to the back. */
  private readonly waiting = new Map<number, Waiting[]>();
  private readonly held = new Set<number>();
  private readonly onTheWire = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly placer: CallPlacer,
    private readonly dialer: Dialer,
  ) {}

  /** Queues a call's dial; false when it waits or is on the wire here already (or the process is stopping). */
  add(callId: number, spec: CallSpec): boolean {
    if (this.closed || this.held.has(callId)) return false;
    this.held.add(callId);
    const queue = this.waiting.get(spec.user_id);
    if (queue) queue.push({ callId, spec });
    else this.waiting.set(spec.user_id, [{ callId, spec }]);
    this.pump();
    return true;
  }

  /** Whether the call's dial waits or is on the wire here. */
  has(callId: number): boolean {
    return this.held.has(callId);
  }

  /** Dial requests open now. */
  get open(): number {
    return this.onTheWire.size;
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    this.waiting.clear();
    await Promise.all(this.onTheWire);
  }

  private pump(): void {
    const limit = this.dialer.maxOpenDials ?? Infinity;
    while (this.onTheWire.size < limit && this.waiting.size) {
      const [organisationId, queue] = this.waiting.entries().next().value!;
      const next = queue.shift()!;
      this.waiting.delete(organisationId);
      if (queue.length) this.waiting.set(organisationId, queue);
      const sent: Promise<void> = this.placer
        .place(next.callId, next.spec)
        .catch((error: Error) => this.logger.error(`call ${next.callId}: its dial failed, left to the resend sweep: ${error.message}`))
        .finally(() => {
          this.onTheWire.delete(sent);
          this.held.delete(next.callId);
          if (!this.closed) this.pump();
        });
      this.onTheWire.add(sent);
    }
  }
}
