import { ContextSlot, disableContextSlots } from '../../shared/context-slot';
import { SqliteBatch } from './sqlite-batch';

/**
 * Which batch of the read store the code running now belongs to: the batch of the `exclusive`
 * call whose work is running, seen only from within that work. A write made outside it (a
 * reactor's checkpoint, an instance's heartbeat) while it runs is a batch of its own, queued after
 * it, never a part of one that may fail or be made again.
 *
 * During a refill (a rebuild) the batch is kept in a field instead: a refill's batches are never
 * made again (their commits go to its writer), so a write from elsewhere that joins one lands in
 * the same new file it would have reached alone. The context slots are switched off meanwhile, and
 * Node's promise hooks with them: about an eighth of a rebuild's time (bench/README.md). Only the
 * rebuild command refills: a process answering requests never does (its callers would read as
 * no one meanwhile).
 */
export class SqliteBatchScope {
  private readonly running = new ContextSlot<SqliteBatch>('read store batch');
  private refilling: SqliteBatch | null = null;

  /** The batch the caller's own work runs in, if any. */
  current(): SqliteBatch | null {
    return this.running.get() ?? this.refilling;
  }

  /** Runs `work` as `batch`'s; `refill`: a refill's batch, kept in the field. */
  async run<R>(batch: SqliteBatch, work: () => Promise<R>, refill: boolean): Promise<R> {
    if (!refill) return this.running.run(batch, work);
    this.refilling = batch;
    try {
      return await work();
    } finally {
      this.refilling = null;
    }
  }

  /** A refill begins: the slots are off until the next `run` outside a refill. */
  refillBegins(): void {
    disableContextSlots();
  }
}
