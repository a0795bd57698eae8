import { randomUUID } from 'node:crypto';
import { DocumentStore } from '../../shared/ports/document-store.port';

/** How long a lease on work is taken for; it is renewed a third of that before it lapses, while the work runs. */
const LEASE_MS = 15_000;

/**
 * Runs `work` alone among every process sharing the store, under the store's lease `name`: when
 * another process holds it, `{ ran: false }` at once. The lease is renewed while the work runs (a
 * slow batch, a version reset emptying a large collection), and let go when it ends.
 */
export async function runLeased<R>(
  store: Pick<DocumentStore, 'lease' | 'releaseLease'>,
  name: string,
  work: () => Promise<R>,
  { owner = randomUUID(), leaseMs = LEASE_MS, now = () => Date.now() }: { owner?: string; leaseMs?: number; now?: () => number } = {},
): Promise<{ ran: true; result: R } | { ran: false }> {
  if ((await store.lease(name, owner, now(), leaseMs)) === null) return { ran: false };
  const renewal = setInterval(() => void store.lease(name, owner, now(), leaseMs).catch(() => undefined), leaseMs / 3);
  renewal.unref();
  try {
    return { ran: true, result: await work() };
  } finally {
    clearInterval(renewal);
    await store.releaseLease(name, owner).catch(() => undefined);
  }
}
