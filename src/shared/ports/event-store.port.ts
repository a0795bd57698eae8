/**
 * The event store port. Every adapter follows EventStoreDB's revision convention:
 * a stream that does not exist has no revision, its first event is revision 0, and
 * an expected revision names the revision of the stream's last event.
 *
 * Positions order every event of the store globally. They are plain numbers that
 * only grow; a reader resumes "after" the last position it processed.
 */
export const EVENT_STORE = Symbol('EVENT_STORE');

export type ExpectedRevision = number | 'no_stream' | 'any';

export interface EventMetadata {
  occurred_at?: string;
  /** Groups events of many streams for `readCorrelated` (EventStoreDB's own metadata key). */
  $correlationId?: string;
  [key: string]: unknown;
}

export interface NewEvent<T = unknown> {
  type: string;
  data: T;
  /** Shape version of `data`; upcasters lift older versions when reading. Defaults to 1. */
  schemaVersion?: number;
  metadata?: EventMetadata;
}

export interface RecordedEvent<T = any> {
  id: string;
  stream: string;
  revision: number;
  position: number;
  type: string;
  schemaVersion: number;
  data: T;
  metadata: EventMetadata;
  occurredAt: string;
}

export interface AppendResult {
  /** Revision of the last appended event: the expected revision of the next append. */
  revision: number;
  /** Global position of the last appended event. */
  position: number;
}

export type EventHandler = (event: RecordedEvent) => Promise<void> | void;

export interface Subscription {
  /** Position read up to: the last event handed to the handler, or past other types' events. */
  readonly position: number;
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** Only events of these types are handed over. */
  types?: readonly string[];
  /** Events fetched per read; the handler still receives them one at a time. */
  batchSize?: number;
  /** Called when the handler throws; the same event is offered again after `retryDelayMs`. */
  onError?: (error: unknown, event?: RecordedEvent) => void;
  retryDelayMs?: number;
}

export interface EventStore {
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream from a revision on, oldest first; empty when the stream does not exist. */
  readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /**
   * Up to `maxCount` events of the whole store after `afterPosition`, oldest first; with
   * `types`, only events of those types (the others are skipped by the store, unread).
   */
  readAll(afterPosition: number, maxCount: number, types?: readonly string[]): Promise<RecordedEvent[]>;
  /**
   * The event recorded at exactly `position` (a position an event was given), or null. A store
   * may refuse a read from a position no event starts at (EventStoreDB answers InvalidPosition
   * to one inside a record): reading "after position − 1" is no way to get it.
   */
  readAt(position: number): Promise<RecordedEvent | null>;
  /**
   * Events of `stream` before `revision` are no longer read with the stream (they stay in the
   * log, in `$all` order): a stream that carries its state forward in a snapshot event stays short
   * to read however long it is written (EventStoreDB's `$tb`). Never moves backwards.
   */
  truncateBefore(stream: string, revision: number): Promise<void>;
  /**
   * Up to `maxCount` events whose metadata `$correlationId` is `correlationId`, after
   * `afterPosition`, oldest first: found through an index, never by scanning the store.
   */
  readCorrelated(correlationId: string, afterPosition: number, maxCount: number): Promise<RecordedEvent[]>;
  /** Position of the newest event, 0 when the store is empty. */
  headPosition(): Promise<number>;
  /** Hands every event after `afterPosition` to the handler one at a time, then follows new ones. */
  subscribeToAll(afterPosition: number, handler: EventHandler, options?: SubscribeOptions): Subscription;
  /**
   * Calls the listener when new events may have been appended (by this process or another),
   * with their types when the store knows them; without types, anything may have come.
   */
  watch(listener: (types?: readonly string[]) => void): () => void;
  /**
   * Next integer of a named sequence: unique across concurrent writers sharing the store, growing
   * within a process and across restarts; there may be gaps (an adapter may reserve ids in blocks).
   */
  nextId(sequence: string): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
