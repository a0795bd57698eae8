import { LRUCache } from 'lru-cache';
import { KeyStore, StoredDataKey } from '../ports/key-store.port';
import { random } from './aes-gcm';
import { MasterKeys, SUBJECT_PURPOSE } from './master-keys';
import { SUBJECT_KEY, isSpanKeyWithin, retentionKeyIdAt } from './sealed-values';

/**
 * How long an instance keeps a subject's key unwrapped. Another instance's erasure is dropped here
 * as soon as this one sees it in the log (`forgetErasedIn`); this bounds it should that feed stall.
 */
export const SUBJECT_KEY_TTL_MS = 60_000;
/** The purpose of an erased subject's tombstone in the key store. */
export const ERASED_PURPOSE = 'erased';
/** Held for an erased subject (or a destroyed span): known gone, not read again. */
const ERASED_MARK = Buffer.alloc(0);

/**
 * docs/privacy.md: the subjects' keys, one per number called (and per span of retained values),
 * made at a subject's first value, read from the key store when first needed, destroyed by an
 * erasure or a retention sweep. Only the recently used are kept unwrapped, and not for long.
 */
export class SubjectKeys {
  private readonly held = new LRUCache<string, Buffer>({ max: 50_000, ttl: SUBJECT_KEY_TTL_MS });

  constructor(
    private readonly store: KeyStore,
    private readonly masters: MasterKeys,
    private readonly now: () => Date,
  ) {}

  /** The key as held now: null for an erased subject, undefined when it must be made or read first. */
  heldNow(keyId: string): Buffer | null | undefined {
    const key = this.held.get(keyId);
    return key === ERASED_MARK ? null : key;
  }

  /** A subject's key: made at its first value when `make`; null once the subject is erased (or the span's key destroyed). */
  async key(keyId: string, make: boolean): Promise<Buffer | null> {
    const known = this.heldNow(keyId);
    if (known !== undefined) return known;
    if (make) {
      // Added unless another writer's is stored already (or a tombstone): the stored one answers.
      const key = Buffer.from(random(32));
      const mine = this.masters.stored(keyId, key, SUBJECT_PURPOSE, this.now());
      const stored = await this.store.add(mine);
      if (stored.wrapped === mine.wrapped) {
        this.held.set(keyId, key);
        return key;
      }
      return this.known(keyId, stored);
    }
    const stored = await this.store.get(keyId);
    if (stored) return this.known(keyId, stored);
    this.held.set(keyId, ERASED_MARK);
    return null;
  }

  private known(keyId: string, stored: StoredDataKey): Buffer | null {
    // A read that began before this instance erased the subject answers the key it found: erased stays erased.
    if (stored.purpose === ERASED_PURPOSE || this.held.get(keyId) === ERASED_MARK) {
      this.held.set(keyId, ERASED_MARK);
      return null;
    }
    const key = this.masters.unwrap(stored.id, stored.master_id, stored.wrapped);
    this.held.set(keyId, key);
    return key;
  }

  /**
   * Unwraps at once the subjects' keys not held yet among `keyIds` (the keys a batch of events read
   * is sealed under): one read of the key store instead of one per key.
   */
  async prefetch(keyIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(keyIds)].filter((id) => SUBJECT_KEY.test(id) && !this.held.has(id));
    if (missing.length === 0) return;
    const found = await this.store.getMany(missing);
    for (const stored of found) this.known(stored.id, stored);
    // A value is sealed only under a key stored first: one named by a value and not stored was destroyed (a past span's).
    const stored = new Set(found.map((key) => key.id));
    for (const id of missing) if (!stored.has(id)) this.held.set(id, ERASED_MARK);
  }

  /**
   * Erasure: the subject's key destroyed, a tombstone in its place, so every value sealed under
   * it is unreadable for good and none is sealed again. Other instances keep a key they hold
   * for at most SUBJECT_KEY_TTL_MS.
   */
  async erase(keyId: string): Promise<void> {
    await this.store.erase(keyId, this.now().toISOString());
    this.held.set(keyId, ERASED_MARK);
  }

  /**
   * Another instance's erasure or retention sweep, seen in the log: the keys it destroyed are
   * dropped from this instance's memory (erased stays erased), so none of their values is opened
   * here again. Keys never held here are read from the key store, where they are gone already.
   */
  forgetErasedIn(event: { type: string; data: unknown }): void {
    if (event.type === 'SubjectErased') {
      this.held.set((event.data as { subject_key: string }).subject_key, ERASED_MARK);
    } else if (event.type === 'RetainedValuesErased') {
      const { user_id, kind, from, until } = event.data as { user_id: number; kind: string; from: string; until: string };
      this.forgetSpans(user_id, kind, Date.parse(from), Date.parse(until));
    }
  }

  /** The organisation's span keys of a kind starting within `[from, end)` (epoch ms), remembered as destroyed. */
  private forgetSpans(organisationId: number, kind: string, from: number, end: number): void {
    for (const keyId of [...this.held.keys()]) if (isSpanKeyWithin(keyId, organisationId, kind, from, end)) this.held.set(keyId, ERASED_MARK);
  }

  /**
   * Retention: the keys of an organisation's spans of retained values of a kind starting within
   * `[from, end)` (epoch ms) destroyed in one write of the key store, however long the range (a
   * first sweep spans the organisation's whole history); none is sealed under again (the spans are
   * past). Answers how many the key store held. Other instances keep them for at most SUBJECT_KEY_TTL_MS.
   */
  async destroyRetentionKeys(organisationId: number, kind: string, from: number, end: number): Promise<number> {
    // Span keys are named by their start in a fixed width after a prefix of their organisation and kind: the range's keys, and no other, lie between its two names.
    const destroyed = await this.store.destroyBetween(retentionKeyIdAt(organisationId, kind, from), retentionKeyIdAt(organisationId, kind, end));
    this.forgetSpans(organisationId, kind, from, end);
    return destroyed;
  }
}
