import { randomUUID } from 'node:crypto';
import mongoose, { Connection } from 'mongoose';
import { Collection, CollectionOptions, DocId, DocumentStore, DocumentView, Filter, FindOptions, noView } from './document-store.port';
import { assertFieldName, isRange } from './filter-fields';

type MongoCollection = ReturnType<Connection['collection']>;

const DUPLICATE_KEY = 11000;
const LEASE_MS = 15_000;

function toMongoFilter(filter: Filter = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    assertFieldName(field);
    if (!isRange(condition)) {
      out[field] = condition;
      continue;
    }
    const ops: Record<string, unknown> = {};
    for (const key of ['gt', 'gte', 'lt', 'lte', 'ne', 'in'] as const) {
      if (condition[key] !== undefined) ops[`$${key}`] = condition[key];
    }
    out[field] = ops;
  }
  return out;
}

function strip<T>(doc: Record<string, unknown> | null): T | null {
  if (!doc) return null;
  const { _id, _pos, ...rest } = doc;
  return rest as T;
}

class MongoDocCollection<T extends object> implements Collection<T> {
  constructor(
    private readonly native: MongoCollection,
    private readonly view?: DocumentView<T>,
  ) {}

  async get(id: DocId): Promise<T | null> {
    return strip<T>(await this.native.findOne({ _id: String(id) } as never));
  }

  async getMany(ids: DocId[]): Promise<T[]> {
    if (!ids.length) return [];
    const docs = await this.native.find({ _id: { $in: [...new Set(ids.map(String))] } } as never).toArray();
    return docs.map((d) => strip<T>(d as Record<string, unknown>)!);
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<T[]> {
    // MongoDB reads `limit(0)` as no limit; the port's 0 is no documents.
    if (options.limit === 0) return [];
    let cursor = this.native.find(toMongoFilter(filter));
    if (options.sort?.length) {
      cursor = cursor.sort(Object.fromEntries(options.sort.map(([f, d]) => [assertFieldName(f), d === 'desc' ? -1 : 1])));
    }
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()).map((d) => strip<T>(d as Record<string, unknown>)!);
  }

  /** Views are made as they are read here; the gain is the embedded store's. */
  async findViews(filter?: Filter, options?: FindOptions): Promise<string[]> {
    const view = this.view;
    if (!view) throw noView(this.native.collectionName);
    return (await this.find(filter, options)).map((doc) => JSON.stringify(view(doc)));
  }

  async count(filter?: Filter): Promise<number> {
    return this.native.countDocuments(toMongoFilter(filter));
  }

  async upsert(id: DocId, doc: T, position: number): Promise<boolean> {
    try {
      const result = await this.native.replaceOne({ _id: String(id), _pos: { $lt: position } } as never, { ...doc, _pos: position }, { upsert: true });
      return result.modifiedCount + result.upsertedCount > 0;
    } catch (error) {
      // The guard did not match an existing document, so the upsert tried to insert its id again.
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  async delete(id: DocId): Promise<boolean> {
    return (await this.native.deleteOne({ _id: String(id) } as never)).deletedCount > 0;
  }
}

/** Read models in MongoDB, one collection each, written through mongoose's connection. */
export class MongoDocumentStore implements DocumentStore {
  private readonly owner = randomUUID();
  private readonly pendingIndexes: Promise<unknown>[] = [];

  private constructor(private readonly connection: Connection) {}

  static async connect(url: string): Promise<MongoDocumentStore> {
    const connection = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 5000 }).asPromise();
    await connection.collection('counters').createIndex({ expires: 1 }, { expireAfterSeconds: 0 });
    return new MongoDocumentStore(connection);
  }

  /** Counts are answered by countDocuments over the indexes; no running totals are kept here. */
  collection<T extends object>(name: string, { indexes = [], view }: CollectionOptions<T> = {}): Collection<T> {
    const native = this.connection.collection(`rm_${assertFieldName(name)}`);
    for (const index of indexes) {
      const keys = Object.fromEntries(index.fields.map((f) => [assertFieldName(f), 1]));
      this.pendingIndexes.push(native.createIndex(keys, { unique: index.unique ?? false }).catch(() => undefined));
    }
    return new MongoDocCollection<T>(native, view);
  }

  async getCheckpoint(name: string): Promise<number> {
    const doc = await this.connection.collection('checkpoints').findOne({ _id: name } as never);
    return (doc?.position as number | undefined) ?? 0;
  }

  async setCheckpoint(name: string, position: number): Promise<void> {
    await this.connection.collection('checkpoints').updateOne({ _id: name } as never, { $max: { position } }, { upsert: true });
  }

  async resetCheckpoint(name: string, position: number): Promise<void> {
    await this.connection.collection('checkpoints').updateOne({ _id: name } as never, { $set: { position } }, { upsert: true });
  }

  /**
   * One conditional update, so atomic between instances: it matches only a lease that is lapsed
   * or the owner's; with none matching, the upsert's insert collides with the held lease's id.
   */
  async lease(name: string, owner: string, now: number, ttlMs: number): Promise<number | null> {
    try {
      const held = await this.connection.collection('leases').findOneAndUpdate(
        { _id: name, $or: [{ owner }, { expires_at: { $lte: now } }] } as never,
        [
          {
            $set: {
              token: { $cond: [{ $eq: ['$owner', { $literal: owner }] }, '$token', { $add: [{ $ifNull: ['$token', 0] }, 1] }] },
              owner: { $literal: owner },
              expires_at: { $literal: now + ttlMs },
            },
          },
        ],
        { upsert: true, returnDocument: 'after' },
      );
      return (held?.token as number | undefined) ?? null;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return null;
      throw error;
    }
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await this.connection.collection('leases').updateOne({ _id: name, owner } as never, { $set: { expires_at: 0 } });
  }

  /** Counters past their expiry are removed by MongoDB's TTL monitor (made at connect), and restart when hit meanwhile. */
  async countHit(name: string, expiresAt: number, now: number): Promise<number> {
    const counter = await this.connection.collection('counters').findOneAndUpdate(
      { _id: name } as never,
      [
        {
          $set: {
            n: { $cond: [{ $gt: ['$expires', { $literal: new Date(now) }] }, { $add: ['$n', 1] }, 1] },
            expires: { $literal: new Date(expiresAt) },
          },
        },
      ],
      { upsert: true, returnDocument: 'after' },
    );
    return counter!.n as number;
  }

  async leaseHolder(name: string, now: number): Promise<string | null> {
    const lease = await this.connection.collection('leases').findOne({ _id: name, expires_at: { $gt: now } } as never);
    return (lease?.owner as string | undefined) ?? null;
  }

  async exclusive<R>(lock: string, work: () => Promise<R>): Promise<{ ran: true; result: R } | { ran: false }> {
    if (!(await this.acquire(lock))) return { ran: false };
    return { ran: true, result: await work() };
  }

  /** Indexes stay while refilling here: MongoDB builds them as it goes. */
  async refill<R>(names: string[], work: () => Promise<R>): Promise<R> {
    for (const name of names) await this.clearCollection(name);
    return work();
  }

  async clearCollection(name: string): Promise<void> {
    await this.connection.collection(`rm_${assertFieldName(name)}`).deleteMany({});
  }

  async ping(): Promise<void> {
    await this.connection.db!.admin().ping();
  }

  async close(): Promise<void> {
    await Promise.all(this.pendingIndexes);
    await this.connection.close();
  }

  /** A lease that its holder renews on every use and others may take once it has expired. */
  private async acquire(lock: string): Promise<boolean> {
    const now = Date.now();
    try {
      await this.connection
        .collection('leases')
        .updateOne(
          { _id: lock, $or: [{ owner: this.owner }, { expires_at: { $lt: now } }] } as never,
          { $set: { owner: this.owner, expires_at: now + LEASE_MS } },
          { upsert: true },
        );
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }
}
