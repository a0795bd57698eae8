import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ConfigError } from '../config-error';
import { KeyStore, StoredDataKey } from '../ports/key-store.port';
import * as aesGcm from './aes-gcm';
import { KEY_NOT_HELD, SEALED, SEALED_PREFIX, SUBJECT_SEALED_PREFIX, bucketStart, isSealed, retentionKeyIdAt } from './sealed-values';
import * as xchacha from './xchacha20-poly1305';
import { MasterKey, MasterKeys, SUBJECT_PURPOSE } from './master-keys';
import { ERASED_PURPOSE, SUBJECT_KEY_TTL_MS, SubjectKeys } from './subject-keys';

const SECRETS_KEY = 'dk_secrets';
/** Keys the keyed hashes of numbers (subject key ids, stream names): never destroyed. */
const INDEX_KEY = 'dk_index';

/** A sealed value's text opened under `key`, by the cipher its version names. */
const openedText = (version: string, key: Buffer, keyId: string, sealed: string): Buffer =>
  version === '2' ? xchacha.decrypt(key, keyId, sealed) : aesGcm.decrypt(key, keyId, sealed);

/**
 * docs/privacy.md: values sealed at rest under data keys named by id, the data keys kept in the
 * key store wrapped by the master keys (DATA_KEYS or the key file). A secret reads
 * `sealed:v1:<data key id>:<iv|ciphertext|tag>` (AES-256-GCM), a person's value
 * `sealed:v2:<subject key id>:<nonce|ciphertext|tag>` (XChaCha20-Poly1305; v1 before this version, still opened).
 */
export class Sealer {
  private readonly dataKeys = new Map<string, Buffer>();
  private readonly subjectKeys: SubjectKeys;
  private readonly masters: MasterKeys;
  /**
   * Values sealed or opened lately, by their sealed text: what is written is read back by every
   * projection and reactor, and a stream again at each command on it (a dial attempt opened about
   * 21 values, each a cipher's work). Bounded by their weight too: a value (a lead's variable)
   * may be a megabyte.
   */
  private readonly opened = new LRUCache<string, { keyId: string; plain: string }>({
    max: 10_000,
    ttl: SUBJECT_KEY_TTL_MS,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (opened, sealed) => 2 * (sealed.length + opened.plain.length) + 64,
  });

  /**
   * `remembersOpened` false: values opened are not remembered, for a reader of the whole log
   * once (a rebuild's reading thread), whose every value is read once and would only churn them.
   */
  constructor(
    private readonly store: KeyStore,
    masters: MasterKey[],
    private readonly now: () => Date = () => new Date(),
    private readonly remembersOpened = true,
  ) {
    this.masters = new MasterKeys(masters);
    this.subjectKeys = new SubjectKeys(store, this.masters, now);
  }

  /**
   * Unwraps every data key, and makes the secrets' own at first start. A key wrapped under a
   * master key not given stops the start, naming it.
   */
  async start(): Promise<void> {
    const missing = (await this.store.masterIds()).filter((id) => !this.masters.has(id));
    if (missing.length) throw new ConfigError(missing.map((id) => `DATA_KEYS has no key "${id}", which data keys in the key store are sealed under`));
    // Subjects' keys (one per person called) are unwrapped when first used, not at each start.
    for (const key of await this.store.allBut([SUBJECT_PURPOSE, ERASED_PURPOSE])) this.unwrap(key);
    if (!this.dataKeys.has(SECRETS_KEY)) await this.create(SECRETS_KEY, 'secrets');
    if (!this.dataKeys.has(INDEX_KEY)) await this.create(INDEX_KEY, 'index');
  }

  /**
   * The key id of a number within an organisation: a keyed hash, the same for every instance and
   * after the key itself is destroyed (it names the number in stream names and on the
   * do-not-call list without its digits).
   */
  subjectKeyId(organisationId: number, e164: string): string {
    return `ds_${this.keyedHash(`${organisationId}:${e164}`)}`;
  }

  retentionKeyId(organisationId: number, kind: string, at: Date): string {
    return retentionKeyIdAt(organisationId, kind, bucketStart(at));
  }

  /** A keyed hash of `text` (144 bits, base64url): names what holds a number without its digits. */
  keyedHash(text: string): string {
    let hash = this.hashes.get(text);
    if (hash === undefined) {
      hash = createHmac('sha256', this.dataKeys.get(INDEX_KEY)!).update(text).digest('base64url').slice(0, 24);
      this.hashes.set(text, hash);
    }
    return hash;
  }

  /** A number's hash is asked for several times as its lead is made and dialed. */
  private readonly hashes = new LRUCache<string, string>({ max: 10_000 });

  /**
   * Unwraps at once the subjects' keys not held yet among `keyIds` (the keys a batch of events read
   * is sealed under): one read of the key store instead of one per key.
   */
  prefetch(keyIds: Iterable<string>): Promise<void> {
    return this.subjectKeys.prefetch(keyIds);
  }

  /** `plain` sealed under a subject's key, made at its first value; an erased subject's value is not kept (`erased`). */
  async sealForSubject(keyId: string, plain: string, erased: string): Promise<string> {
    const now = this.sealHeld(keyId, plain, erased);
    if (now !== KEY_NOT_HELD) return now;
    const key = await this.subjectKeys.key(keyId, true);
    return key ? this.sealing(keyId, key, plain) : erased;
  }

  /** `sealForSubject` with a key this instance holds, without waiting: KEY_NOT_HELD when the key must be made or read first (`holdKeys`). */
  sealHeld(keyId: string, plain: string, erased: string): string | typeof KEY_NOT_HELD {
    const key = this.subjectKeys.heldNow(keyId);
    if (key === undefined) return KEY_NOT_HELD;
    return key === null ? erased : this.sealing(keyId, key, plain);
  }

  /** Makes ready the subjects' keys values are about to be sealed under: each made at its first value, or the one stored read. */
  async holdKeys(keyIds: Iterable<string>): Promise<void> {
    await Promise.all([...keyIds].map((keyId) => this.subjectKeys.key(keyId, true)));
  }

  private sealing(keyId: string, key: Buffer, plain: string): string {
    const sealed = `${SUBJECT_SEALED_PREFIX}${keyId}:${xchacha.encrypt(key, keyId, Buffer.from(plain, 'utf8'))}`;
    // What is written is read back at once by the projections and the reactors.
    this.opened.set(sealed, { keyId, plain });
    return sealed;
  }

  /** What a subject's sealed value was sealed from; undefined once the subject is erased. */
  async openForSubject(value: string): Promise<string | undefined> {
    const now = this.openHeld(value);
    if (now !== KEY_NOT_HELD) return now;
    const [, version, keyId, sealed] = SEALED.exec(value)!;
    const key = await this.subjectKeys.key(keyId, false);
    return key ? this.opening(value, version, keyId, key, sealed) : undefined;
  }

  /**
   * `openForSubject` from what this instance holds, without waiting: KEY_NOT_HELD when the
   * value's key must be read from the key store first.
   */
  openHeld(value: string): string | undefined | typeof KEY_NOT_HELD {
    const known = this.opened.get(value);
    // Answered only while its key is held: an erasure, or the key let go, ends it with the key.
    if (known !== undefined && this.subjectKeys.heldNow(known.keyId)) return known.plain;
    const match = SEALED.exec(value);
    if (!match) return value;
    const [, version, keyId, sealed] = match;
    const key = this.subjectKeys.heldNow(keyId);
    if (key === undefined) return KEY_NOT_HELD;
    return key === null ? undefined : this.opening(value, version, keyId, key, sealed);
  }

  private opening(value: string, version: string, keyId: string, key: Buffer, sealed: string): string {
    const plain = openedText(version, key, keyId, sealed).toString('utf8');
    if (this.remembersOpened) this.opened.set(value, { keyId, plain });
    return plain;
  }

  /** Erasure: the subject's key destroyed, a tombstone in its place (`SubjectKeys.erase`). */
  eraseSubject(keyId: string): Promise<void> {
    return this.subjectKeys.erase(keyId);
  }

  /** Another instance's erasure or retention sweep, seen in the log: its keys let go here (`SubjectKeys.forgetErasedIn`). */
  forgetErasedIn(event: { type: string; data: unknown }): void {
    this.subjectKeys.forgetErasedIn(event);
  }

  /** Retention: an organisation's span keys of a kind within `[from, end)` destroyed (`SubjectKeys.destroyRetentionKeys`). */
  destroyRetentionKeys(organisationId: number, kind: string, from: number, end: number): Promise<number> {
    return this.subjectKeys.destroyRetentionKeys(organisationId, kind, from, end);
  }

  /** A new data key (or the one another instance stored under that id first). */
  async create(id: string, purpose: string): Promise<void> {
    this.unwrap(await this.store.add(this.masters.stored(id, randomBytes(32), purpose, this.now())));
  }

  /** `plain` sealed under the secrets' data key; a value sealed already is left as it is. */
  seal(plain: string): string {
    if (isSealed(plain)) return plain;
    return `${SEALED_PREFIX}${SECRETS_KEY}:${aesGcm.encrypt(this.dataKeys.get(SECRETS_KEY)!, SECRETS_KEY, Buffer.from(plain, 'utf8'))}`;
  }

  /** What `value` was sealed from; a value never sealed is answered as it is. */
  async open(value: string): Promise<string> {
    const match = SEALED.exec(value);
    if (!match) return value;
    const [, version, keyId, sealed] = match;
    // A data key another instance made after this one started.
    if (!this.dataKeys.has(keyId)) {
      const stored = await this.store.get(keyId);
      if (!stored) throw new Error(`Data key ${keyId} is not in the key store`);
      this.unwrap(stored);
    }
    return openedText(version, this.dataKeys.get(keyId)!, keyId, sealed).toString('utf8');
  }

  /** `keys:rotate`: every data key wrapped again under the current master key; how many were. */
  async rotate(): Promise<number> {
    let rewrapped = 0;
    for (const key of await this.store.all()) {
      if (key.master_id === this.masters.currentId || key.purpose === ERASED_PURPOSE) continue;
      const plain = this.masters.unwrap(key.id, key.master_id, key.wrapped);
      await this.store.replace({ ...key, master_id: this.masters.currentId, wrapped: this.masters.wrap(key.id, plain, key.purpose) });
      rewrapped++;
    }
    return rewrapped;
  }

  /** A shared data key (the secrets', the keyed hashes') unwrapped and held. */
  private unwrap(key: StoredDataKey): void {
    this.dataKeys.set(key.id, this.masters.unwrap(key.id, key.master_id, key.wrapped));
  }
}
