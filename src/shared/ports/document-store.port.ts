/**
 * The read-model port: a small document store that every projection and query is
 * written against once, and that runs on SQLite (embedded) and on MongoDB.
 *
 * Writes carry the global position of the event that caused them: a document is only
 * replaced by a write from a later position, so re-applying events is harmless.
 */
export const READ_STORE = Symbol('READ_STORE');

export type Scalar = string | number | boolean | null;
export interface Range {
  gt?: Scalar;
  gte?: Scalar;
  lt?: Scalar;
  lte?: Scalar;
  ne?: Scalar;
  in?: Scalar[];
}
/** Field names may be dotted paths into nested objects. Undefined conditions are ignored. */
export type Filter = Record<string, Scalar | Range | undefined>;
export type SortOrder = Array<[field: string, direction: 'asc' | 'desc']>;

export interface FindOptions {
  sort?: SortOrder;
  skip?: number;
  limit?: number;
}

export interface IndexSpec {
  fields: string[];
  unique?: boolean;
}

export type DocId = string | number;

/**
 * What a list shows of a document; a pure function of it. Views may be stored, so a
 * projection that changes its view changes its shape: it raises its `version`.
 */
export type DocumentView<T> = (doc: T) => object;

export function noView(collection: string): Error {
  return new Error(`Collection ${collection} has no view`);
}

/** docs/reports.md: the documents of a filter as one moment of the store saw them, read a page at a time. */
export interface Snapshot<T> {
  /** The distinct keys of the object each document holds at `field` (`variables`), in order. */
  keysOf(field: string): Promise<string[]>;
  /** The documents, newest id first, `pageSize` at a time; writes made after the snapshot was taken are not seen. */
  pages(pageSize?: number): AsyncIterable<T[]>;
  /** Lets the moment go; call it however the reading ended. */
  close(): Promise<void>;
}

export interface Collection<T extends object> {
  get(id: DocId): Promise<T | null>;
  /** The stored documents of these ids, by their keys; ids with none are left out. */
  getMany(ids: DocId[]): Promise<T[]>;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  /**
   * The JSON text of the collection's `view` of each document `find` would answer, for
   * lists sent as they are: an adapter may keep it written beside the document, so a page
   * is neither parsed nor serialised again. Throws when the collection has no view.
   */
  findViews(filter?: Filter, options?: FindOptions): Promise<string[]>;
  count(filter?: Filter): Promise<number>;
  /** What `find(filter)` answers, held at one moment for a long read (an export): see Snapshot. */
  snapshot(filter?: Filter): Promise<Snapshot<T>>;
  /** What `count` answers for each value of a field holding numbers or text; documents without it are left out. */
  countBy(field: string, filter?: Filter): Promise<Map<string | number, number>>;
  /** Stores the document unless the stored one, or its deletion, came from the same or a later position. */
  upsert(id: DocId, doc: T, position: number): Promise<boolean>;
  /**
   * Stores a document its id never held (a trail's entry, the document an entity's first event
   * makes), without reading first: unless its id holds a document already, or held one since
   * deleted, which then stays as it is.
   */
  add(id: DocId, doc: T, position: number): Promise<void>;
  /**
   * Removes the document unless it came from a later position, and remembers the deletion's
   * position: an upsert from the same or an earlier one cannot bring the document back.
   */
  delete(id: DocId, position: number): Promise<boolean>;
}

/** What a projection declares of a collection when it opens it. */
export interface CollectionOptions<T> {
  /** Made when the collection is first opened, and when a projection declares more. */
  indexes?: IndexSpec[];
  /** What `findViews` answers of each document. */
  view?: DocumentView<T>;
}

export interface DocumentStore {
  /** Opens (and on first use creates, with its indexes) a collection. */
  collection<T extends object>(name: string, options?: CollectionOptions<T>): Collection<T>;
  getCheckpoint(name: string): Promise<number>;
  /** Moves the checkpoint forward to `position`; never back, so a late writer cannot undo a later one's progress. */
  setCheckpoint(name: string, position: number): Promise<void>;
  /** Sets the checkpoint to `position` whatever it was: a projection starting again, a version recorded. */
  resetCheckpoint(name: string, position: number): Promise<void>;
  /**
   * Takes the lease `name` for `owner` until `now + ttlMs` when no one holds it, its holder let
   * it lapse or `owner` holds it already (a renewal). Answers the lease's fencing token, which
   * grows each time the lease changes hands, or null while another owner holds it.
   */
  lease(name: string, owner: string, now: number, ttlMs: number): Promise<number | null>;
  /** Lets the lease go at once when `owner` holds it, so another owner may take it without waiting. */
  releaseLease(name: string, owner: string): Promise<void>;
  /** The owner holding the lease at `now`, null when it is free or lapsed. */
  leaseHolder(name: string, now: number): Promise<string | null>;
  /**
   * Adds one to the named counter, shared by every process of the store, and answers its count.
   * A counter past `expiresAt` counts from nothing again (and may be forgotten).
   */
  countHit(name: string, expiresAt: number, now: number): Promise<number>;
  /**
   * Runs `work` as one batch of projection writes, alone among the processes sharing the store.
   * Inside it, `get` answers the documents as the work left them; `find` and `count` may answer
   * what was there before it. Each write is still guarded by its event's position and checkpoints
   * only move forward. The embedded adapter commits a batch's writes and checkpoints together in
   * one transaction; MongoDB's runs under a lease, and answers `{ ran: false }` at once while
   * another process holds it (that process is doing the work).
   */
  exclusive<R>(lock: string, work: () => Promise<R>): Promise<{ ran: true; result: R } | { ran: false }>;
  /** Removes every document of a collection; the collection and its indexes stay. */
  clearCollection(name: string): Promise<void>;
  /**
   * Empties the named collections, runs `work` that fills them again from nothing (a
   * rebuild), and answers its result. An adapter may leave the collections' indexes and
   * running totals out while `work` writes, and make them once after, from what it wrote:
   * only `get`, `upsert` and `delete` may be used on them meanwhile.
   */
  refill<R>(names: string[], work: () => Promise<R>): Promise<R>;
  /**
   * Whether `refill` may run while services read and write the store from other processes
   * (MongoDB renames collections under them); the embedded file is renamed over the one they
   * hold open, so there a rebuild waits until every service has stopped.
   */
  readonly refillsBesideServices: boolean;
  /**
   * Rewrites the store's files so no free page or log keeps what was deleted (docs/privacy.md:
   * after secrets were sealed in place). A store with nothing of the kind to do has none.
   */
  compact?(): Promise<void>;
  /**
   * Leaves no copy of what was overwritten or deleted so far in the store's files (docs/privacy.md:
   * after an erasure): its log moved into the file, where such values were overwritten, and cut.
   * A store that cannot say so has none.
   */
  forgetOverwritten?(): Promise<void>;
  /** Settles once the collections opened so far are usable with their indexes; rejects naming what the store refused. */
  ready(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
