import { Inject, Injectable } from '@nestjs/common';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { Clock } from '../shared/clock';

interface UsageRecord {
  id: number;
  last_used_at: string;
}

/** How often one instance writes a key's `last_used_at` at most. */
const EVERY_MS = 60_000;

/**
 * docs/teams.md: an API key's `last_used_at`, kept without an event per request. Each instance
 * writes it at most once a minute per key, in a collection of its own (no projection owns it, so
 * a rebuild keeps it); the write's time is its position, so a later use is never overwritten.
 */
@Injectable()
export class ApiKeyUsage {
  private readonly usage: Collection<UsageRecord>;
  private readonly written = new Map<number, number>();

  constructor(
    @Inject(READ_STORE) store: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.usage = store.collection<UsageRecord>('api_key_usage');
  }

  used(keyId: number): void {
    const now = this.clock.now().getTime();
    if (now - (this.written.get(keyId) ?? -Infinity) < EVERY_MS) return;
    this.written.set(keyId, now);
    this.usage.upsert(keyId, { id: keyId, last_used_at: new Date(now).toISOString() }, now).catch(() => this.written.delete(keyId));
  }

  async lastUsed(keyIds: number[]): Promise<Map<number, string>> {
    return new Map((await this.usage.getMany(keyIds)).map((record) => [record.id, record.last_used_at]));
  }
}
