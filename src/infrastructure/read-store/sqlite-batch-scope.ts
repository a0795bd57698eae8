import { AsyncLocalStorage } from 'node:async_hooks';
import { SqliteBatch } from './sqlite-batch';

/**
 * Which batch of the read store the code running now belongs to: the batch of the `exclusive`
 * call whose work is running, seen only from within that work. A write made outside it (a
 * reactor's checkpoint, an instance's heartbeat) while it runs is a batch of its own, queued after
 * it, never a part of one that may fail or be made again.
 *
 * During a refill (a rebuild) the batch is kept in a field instead: a refill's batches are never
 * made again (their commits go to its writer), so a write from elsewhere that joins one lands in
 * the same new file it would have reached alone. The storage is switched off meanwhile, and with
 * no other in use Node's promise hooks go off with it: about an eighth of a rebuild's time
 * (bench/README.md).
 */
export class SqliteBatchScope {
  private readonly running = new AsyncLocalStorage<SqliteBatch>();
  private refilling: SqliteBatch | null = null;

  /** The batch the caller's own work runs in, if any. */
  current(): SqliteBatch | null {
    return this.running.getStore() ?? this.refilling;
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

  /** A refill begins: the storage is off until the next batch outside a refill. */
  refillBegins(): void {
    this.running.disable();
  }
}
