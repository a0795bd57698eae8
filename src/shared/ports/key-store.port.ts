/** A data key as stored: wrapped by the master key `master_id` (AES-256-GCM; a subject's key XChaCha20-Poly1305, `x:`; docs/privacy.md). */
export interface StoredDataKey {
  id: string;
  master_id: string;
  wrapped: string;
  /** What it seals: `secrets`, or one data subject's values. */
  purpose: string;
  created_at: string;
}

export const KEY_STORE = Symbol('KEY_STORE');

/**
 * Where data keys are kept: outside the event log, since a key must be destroyable (erasing a
 * person destroys theirs). Embedded: a file of its own in DATA_DIR; distributed: a MongoDB collection.
 */
export interface KeyStore {
  all(): Promise<StoredDataKey[]>;
  /** The stored keys whose purpose is none of `purposes`: a start reads no subject's key (one per person called). */
  allBut(purposes: readonly string[]): Promise<StoredDataKey[]>;
  /** The master keys stored keys are wrapped under (a tombstone wraps nothing). */
  masterIds(): Promise<string[]>;
  get(id: string): Promise<StoredDataKey | null>;
  /** The stored keys of these ids (those not stored left out), in one read: a batch of events names many. */
  getMany(ids: readonly string[]): Promise<StoredDataKey[]>;
  /** Stores `key` unless one of its id is stored already; answers the one stored (several instances starting at once agree on it). */
  add(key: StoredDataKey): Promise<StoredDataKey>;
  /** Replaces the stored key of the same id (a rewrap under another master key). */
  replace(key: StoredDataKey): Promise<void>;
  /**
   * Destroys the stored keys whose ids lie from `first` up to but not including `end`, compared as
   * text (a retention sweep's span keys), in one write; nothing of them is left in the store's
   * files. Answers how many were stored.
   */
  destroyBetween(first: string, end: string): Promise<number>;
  /**
   * Destroys a subject's key and leaves in its place a tombstone of the same id (`purpose`
   * `erased`, nothing wrapped), in one write: the subject's values written later are not sealed
   * under a new key, and none can be made between the two (docs/privacy.md).
   */
  erase(id: string, at: string): Promise<void>;
  close(): Promise<void>;
}
