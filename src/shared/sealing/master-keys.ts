import { hkdfSync } from 'node:crypto';
import { ConfigError } from '../config-error';
import { StoredDataKey } from '../ports/key-store.port';
import * as aesGcm from './aes-gcm';
import * as xchacha from './xchacha20-poly1305';

/** A key that wraps the data keys (docs/privacy.md): 32 bytes, named by id. */
export interface MasterKey {
  id: string;
  key: Buffer;
}

/** The purpose of a subject's key in the key store (a person's, or a span of retained values). */
export const SUBJECT_PURPOSE = 'subject';

/** How a key wrapped by XChaCha20-Poly1305 begins; one wrapped by AES-256-GCM (every key before v2) has no prefix. */
const WRAPPED_V2 = 'x:';

/**
 * The master keys given (the first current) wrapping data keys for the key store. The shared data
 * keys are wrapped by AES-256-GCM under a master key; people's keys, one per number called and
 * one unwrapped for nearly every value opened, by XChaCha20-Poly1305 under a key derived from it
 * (a key of its own for each cipher).
 */
export class MasterKeys {
  private readonly byId: Map<string, { master: MasterKey; forSubjects: Buffer }>;
  readonly currentId: string;

  constructor(masters: MasterKey[]) {
    this.byId = new Map(
      masters.map((master) => [master.id, { master, forSubjects: Buffer.from(hkdfSync('sha256', master.key, Buffer.alloc(0), 'subject keys', 32)) }]),
    );
    this.currentId = masters[0].id;
  }

  has(masterId: string): boolean {
    return this.byId.has(masterId);
  }

  /** `key` wrapped under the current master key: a subject's by the subjects' cipher. */
  wrap(id: string, key: Buffer, purpose: string): string {
    const { master, forSubjects } = this.byId.get(this.currentId)!;
    return purpose === SUBJECT_PURPOSE ? `${WRAPPED_V2}${xchacha.encrypt(forSubjects, id, key)}` : aesGcm.encrypt(master.key, id, key);
  }

  /** A new data key as the key store keeps it. */
  stored(id: string, key: Buffer, purpose: string, at: Date): StoredDataKey {
    return { id, master_id: this.currentId, wrapped: this.wrap(id, key, purpose), purpose, created_at: at.toISOString() };
  }

  /** The data key `id` wrapped as `wrapped` under the master key `masterId`; a master key not given stops the start, naming it. */
  unwrap(id: string, masterId: string, wrapped: string): Buffer {
    const known = this.byId.get(masterId);
    if (!known) throw new ConfigError([`DATA_KEYS has no key "${masterId}", which data key ${id} is sealed under`]);
    return wrapped.startsWith(WRAPPED_V2)
      ? xchacha.decrypt(known.forSubjects, id, wrapped.slice(WRAPPED_V2.length))
      : aesGcm.decrypt(known.master.key, id, wrapped);
  }
}
