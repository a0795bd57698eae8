import { aggregate, find, Query, update } from 'mingo';
import type { Connection } from 'mongoose';

type Doc = Record<string, unknown> & { _id?: unknown };
type Filter = Record<string, unknown>;
type Modifier = Record<string, unknown> | Array<Record<string, unknown>>;

/** MongoDB's error codes the adapter reads (src/mongo/base/error_codes.yml in the server's source). */
export const MONGO_CODES = { duplicateKey: 11000, snapshotTooOld: 239 } as const;

export interface StandInOptions {
  /** The share of round trips held up, on the way there or back. */
  delayedShare?: number;
  delayMs?: [number, number];
  /** `minSnapshotHistoryWindowInSeconds` (default 300 s): a snapshot read older than this fails with SnapshotTooOld. */
  snapshotWindowMs?: number;
  now?: () => number;
}

class MongoError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

const clone = <T>(value: T): T => structuredClone(value);

/** The fields an upsert's insert takes from its filter: its top-level equalities (MongoDB's rule for upserts). */
function insertedFrom(filter: Filter): Doc {
  return Object.fromEntries(
    Object.entries(filter).filter(([key, value]) => !key.startsWith('$') && !(value && typeof value === 'object' && !(value instanceof Date))),
  );
}

function modified(doc: Doc, modifier: Modifier): Doc {
  if (Array.isArray(modifier)) return aggregate([clone(doc)], modifier)[0] as Doc;
  const next = clone(doc);
  update(next, modifier as never);
  return next;
}

interface Session {
  snapshot: boolean;
  pinned?: { at: number; data: Map<string, Map<string, Doc>> };
  endSession(): Promise<void>;
}

/**
 * An in-memory stand-in of one MongoDB server, for what the read-store adapter asks of it, with
 * the server's semantics where the adapter depends on them: each single-document operation is
 * atomic; an upsert whose filter matches nothing inserts the filter's equalities and collides
 * (11000) with a stored `_id`; `$max`, pipeline updates and queries as MongoDB's query language
 * defines them (through mingo); a snapshot session reads the moment of its first read and fails
 * with SnapshotTooOld once that moment is older than the snapshot window. Round trips can be held
 * up, on the way there or back, so several clients interleave as they do over a network.
 */
export class MongoStandIn {
  private readonly collections = new Map<string, Map<string, Doc>>();
  roundTrips = 0;

  constructor(public options: StandInOptions = {}) {}

  /** Forgets every document, as a new server would hold none. */
  reset(): void {
    this.collections.clear();
  }

  /** A client's connection, shaped as the part of mongoose's Connection the adapter uses. */
  connection(): Connection {
    const db = {
      dropCollection: (name: string) => this.trip(() => this.collections.delete(name)),
      renameCollection: (from: string, to: string) =>
        this.trip(() => {
          this.collections.set(to, this.documents(from));
          this.collections.delete(from);
        }),
      admin: () => ({ ping: () => this.trip(() => ({ ok: 1 })) }),
    };
    const client = { startSession: ({ snapshot = false } = {}): Session => ({ snapshot, endSession: async () => undefined }) };
    return {
      collection: (name: string) => this.collection(name),
      db,
      getClient: () => client,
      close: async () => undefined,
    } as unknown as Connection;
  }

  /** Every collection's documents, as stored. */
  dump(): Record<string, Doc[]> {
    const names = [...this.collections.keys()].sort();
    return Object.fromEntries(names.map((name) => [name, [...this.documents(name).values()].sort((a, b) => String(a._id).localeCompare(String(b._id)))]));
  }

  private documents(name: string): Map<string, Doc> {
    let docs = this.collections.get(name);
    if (!docs) this.collections.set(name, (docs = new Map()));
    return docs;
  }

  private async hold(): Promise<void> {
    const { delayedShare = 0, delayMs = [5, 15] } = this.options;
    if (Math.random() < delayedShare / 2) await new Promise((resolve) => setTimeout(resolve, delayMs[0] + Math.random() * (delayMs[1] - delayMs[0])));
    else await new Promise((resolve) => setImmediate(resolve));
  }

  /** One round trip: the way there, the operation (atomic, as on the server), the way back. */
  private async trip<R>(operation: () => R): Promise<R> {
    this.roundTrips++;
    await this.hold();
    const result = operation();
    await this.hold();
    return result;
  }

  private readable(name: string, session?: Session): Doc[] {
    // A read makes no collection, as on the server.
    if (!session?.snapshot) return [...(this.collections.get(name)?.values() ?? [])];
    const now = (this.options.now ?? Date.now)();
    if (!session.pinned)
      session.pinned = { at: now, data: new Map([...this.collections].map(([n, docs]) => [n, new Map([...docs].map(([id, d]) => [id, clone(d)]))])) };
    if (now - session.pinned.at > (this.options.snapshotWindowMs ?? 300_000))
      throw new MongoError('Read timestamp is older than the oldest available timestamp.', MONGO_CODES.snapshotTooOld);
    return [...(session.pinned.data.get(name)?.values() ?? [])];
  }

  private matching(name: string, filter: Filter, session?: Session): Doc[] {
    const query = new Query(filter);
    return this.readable(name, session).filter((doc) => query.test(doc));
  }

  /** Writes `next` in place of `before` (or inserts it), refusing an `_id` already stored. */
  private write(name: string, before: Doc | undefined, next: Doc): void {
    const docs = this.documents(name);
    const id = String(next._id);
    if (!before && docs.has(id))
      throw new MongoError(`E11000 duplicate key error collection: ${name} index: _id_ dup key: { _id: "${id}" }`, MONGO_CODES.duplicateKey);
    docs.set(id, next);
  }

  private upsertOne(name: string, filter: Filter, change: (doc: Doc) => Doc, upsert: boolean): { before?: Doc; after?: Doc } {
    const [before] = this.matching(name, filter);
    if (!before && !upsert) return {};
    const after = change(before ?? insertedFrom(filter));
    this.write(name, before, after);
    return { before, after };
  }

  private collection(name: string) {
    type Options = {
      session?: Session;
      upsert?: boolean;
      returnDocument?: 'before' | 'after';
      sort?: Record<string, 1 | -1>;
      limit?: number;
      batchSize?: number;
    };
    const cursorOver = (filter: Filter, options: Options = {}) => {
      let sort = options.sort;
      let skip = 0;
      let limit = options.limit ?? 0;
      const read = () => {
        let cursor = find(this.matching(name, filter, options.session), {});
        if (sort) cursor = cursor.sort(sort);
        if (skip) cursor = cursor.skip(skip);
        if (limit) cursor = cursor.limit(limit);
        return cursor.all().map((doc) => clone(doc as Doc));
      };
      const cursor = {
        sort: (spec: Record<string, 1 | -1>) => ((sort = spec), cursor),
        skip: (n: number) => ((skip = n), cursor),
        limit: (n: number) => ((limit = n), cursor),
        toArray: () => this.trip(read),
        // A cursor is read a batch per round trip (getMore), each at the session's moment.
        [Symbol.asyncIterator]: async function* (this: void) {
          const all = await trip(read);
          const size = options.batchSize ?? 101;
          for (let i = 0; i < all.length; i += size) {
            if (i > 0) await trip(() => readable(name, options.session));
            yield* all.slice(i, i + size);
          }
        },
      };
      return cursor;
    };
    const trip = <R>(operation: () => R) => this.trip(operation);
    const readable = (n: string, session?: Session) => this.readable(n, session);
    return {
      findOne: (filter: Filter, options: Options = {}) => this.trip(() => clone(this.matching(name, filter, options.session)[0] ?? null)),
      find: cursorOver,
      countDocuments: (filter: Filter) => this.trip(() => this.matching(name, filter).length),
      aggregate: (pipeline: Array<Record<string, unknown>>, options: Options = {}) => ({
        toArray: () => this.trip(() => aggregate(this.readable(name, options.session), pipeline)),
      }),
      insertOne: (doc: Doc) =>
        this.trip(() => {
          this.write(name, undefined, clone(doc));
          return { insertedId: doc._id };
        }),
      replaceOne: (filter: Filter, doc: Doc, options: Options = {}) =>
        this.trip(() => {
          const { before, after } = this.upsertOne(name, filter, (old) => ({ ...clone(doc), _id: old._id }), !!options.upsert);
          return { modifiedCount: before ? 1 : 0, upsertedCount: !before && after ? 1 : 0 };
        }),
      findOneAndReplace: (filter: Filter, doc: Doc, options: Options = {}) =>
        this.trip(() => {
          const { before, after } = this.upsertOne(name, filter, (old) => ({ ...clone(doc), _id: old._id }), !!options.upsert);
          return clone((options.returnDocument === 'after' ? after : before) ?? null);
        }),
      findOneAndUpdate: (filter: Filter, modifier: Modifier, options: Options = {}) =>
        this.trip(() => {
          const { before, after } = this.upsertOne(name, filter, (old) => modified(old, modifier), !!options.upsert);
          return clone((options.returnDocument === 'after' ? after : before) ?? null);
        }),
      updateOne: (filter: Filter, modifier: Modifier, options: Options = {}) =>
        this.trip(() => {
          const { before, after } = this.upsertOne(name, filter, (old) => modified(old, modifier), !!options.upsert);
          return { matchedCount: before ? 1 : 0, upsertedCount: !before && after ? 1 : 0 };
        }),
      updateMany: (filter: Filter, modifier: Modifier) =>
        this.trip(() => {
          const matched = this.matching(name, filter);
          for (const doc of matched) this.write(name, doc, modified(doc, modifier));
          return { matchedCount: matched.length };
        }),
      deleteMany: (filter: Filter) =>
        this.trip(() => {
          const gone = this.matching(name, filter);
          for (const doc of gone) this.documents(name).delete(String(doc._id));
          return { deletedCount: gone.length };
        }),
      createIndex: () => this.trip(() => 'index'),
    };
  }
}
