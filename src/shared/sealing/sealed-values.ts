/** How a sealed value reads, and how the keys it is sealed under are named (docs/privacy.md). */

/** A secret's, or a personal value sealed before v2: AES-256-GCM. */
export const SEALED_PREFIX = 'sealed:v1:';
/** A personal value: XChaCha20-Poly1305 under its subject's key. */
export const SUBJECT_SEALED_PREFIX = 'sealed:v2:';
/** `sealed:v<1|2>:<data key id>:<iv|ciphertext|tag>`: the version names the cipher. */
export const SEALED = /^sealed:v([12]):([A-Za-z0-9_-]+):([A-Za-z0-9_-]+)$/;
/** A data subject's key id: `ds_` and a keyed hash of the organisation and the number; `dr_` a span of retained values. */
export const SUBJECT_KEY = /^d[sr]_[A-Za-z0-9_-]+$/;
/** Retained values are sealed under one key per organisation, kind and ten minutes (docs/privacy.md). */
export const RETENTION_BUCKET_MS = 10 * 60_000;

/** What the key ids of an organisation's retained values of a kind begin with; the bucket's start follows, as YYYYMMDDhhmm. */
const retentionKeyPrefix = (organisationId: number, kind: string) => `dr_${organisationId}_${kind}_`;

/** The key id of an organisation's retained values of a kind written in the bucket starting at `bucketStart` (ms). */
export const retentionKeyIdAt = (organisationId: number, kind: string, bucketStart: number) =>
  `${retentionKeyPrefix(organisationId, kind)}${new Date(bucketStart).toISOString().slice(0, 16).replace(/[-:T]/g, '')}`;

/** The start (ms) of the ten minutes `at` falls in. */
export const bucketStart = (at: Date) => at.getTime() - (at.getTime() % RETENTION_BUCKET_MS);

/** Whether `keyId` names one of an organisation's span keys of a kind starting within `[from, end)` (epoch ms). */
export function isSpanKeyWithin(keyId: string, organisationId: number, kind: string, from: number, end: number): boolean {
  const [first, last] = [retentionKeyIdAt(organisationId, kind, from), retentionKeyIdAt(organisationId, kind, end)];
  return keyId.startsWith(retentionKeyPrefix(organisationId, kind)) && keyId.length === first.length && keyId >= first && keyId < last;
}

export const isSealed = (value: unknown): value is string =>
  typeof value === 'string' && (value.startsWith(SUBJECT_SEALED_PREFIX) || value.startsWith(SEALED_PREFIX));

/** The id of the key a sealed value is sealed under. */
export const sealedKeyId = (value: string): string | undefined => SEALED.exec(value)?.[2];

/** What the sealer answers, without waiting, for a value whose key this instance does not hold. */
export const KEY_NOT_HELD = Symbol('key not held');
