import mongoose, { Connection } from 'mongoose';
import { Collection, CollectionOptions, DocumentStore, IndexSpec } from '../../shared/ports/document-store.port';
import { assertFieldName } from '../../shared/ports/filter-fields';
import { DUPLICATE_KEY, LIVE, MongoDocCollection } from './mongo-collection';
import { runLeased } from './leased-work';

const live = (name: string) => `rm_${assertFieldName(name)}`;
const rebuilt = (name: string) => `${live(name)}__rebuild`;

/**
 * Read models in MongoDB, one collection each, written through mongoose's connection. Any
 * instance may project: writes are guarded by position (see MongoDocCollection) and checkpoints
 * only move forward, so no lock is needed, and each instance's writes are read back at once.
 */
export class MongoDocumentStore implements DocumentStore {
  readonly refillsBesideServices = true;
  private readonly declared = new Map<string, IndexSpec[]>();
  private readonly indexesMade: Array<Promise<string | null>> = [];
  /** During a rebuild in this process: the collections written, by read model. */
  private refilling = new Map<string, string>();

  private constructor(private readonly connection: Connection) {}

  static async connect(url: string): Promise<MongoDocumentStore> {
    const connection = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 5000 }).asPromise();
    await connection.collection('counters').createIndex({ expires: 1 }, { expireAfterSeconds: 0 });
    return new MongoDocumentStore(connection);
  }

  /** A store over a connection made elsewhere (a stand-in of the server, in tests). */
  static over(connection: Connection): MongoDocumentStore {
    return new MongoDocumentStore(connection);
  }

  /** Counts are answered by countDocuments over the indexes; no running totals are kept here. */
  collection<T extends object>(name: string, { indexes = [], view }: CollectionOptions<T> = {}): Collection<T> {
    this.declared.set(name, indexes);
    this.indexesMade.push(...this.makeIndexes(live(name), indexes));
    return new MongoDocCollection<T>(
      () => this.connection.collection(this.refilling.get(name) ?? live(name)),
      name,
      view,
      () => this.connection.getClient().startSession({ snapshot: true }),
    );
  }

  /** Rejects, naming each index MongoDB refused (a clash with an index made by hand, say), so the start stops there. */
  async ready(): Promise<void> {
    const refused = (await Promise.all(this.indexesMade)).filter((problem): problem is string => problem !== null);
    if (refused.length) throw new Error(`MongoDB refused read-model indexes: ${refused.join('; ')}`);
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

  /**
   * One instance at a time, under a lease of the store's (renewed while the work runs): the
   * projections' batches and version resets. Documents written from what a document was before an
   * event (a report's counters) are then never written by two instances from the same stale read.
   */
  async exclusive<R>(lock: string, work: () => Promise<R>): Promise<{ ran: true; result: R } | { ran: false }> {
    return runLeased(this, `exclusive:${lock}`, work);
  }

  /**
   * Writes the collections anew beside the live ones and renames them over the live ones once the
   * work is done: readers in every instance see the old documents until then, never empty ones.
   */
  async refill<R>(names: string[], work: () => Promise<R>): Promise<R> {
    const db = this.connection.db!;
    for (const name of names) {
      await db.dropCollection(rebuilt(name)).catch(() => undefined);
      const refused = (await Promise.all(this.makeIndexes(rebuilt(name), this.declared.get(name) ?? []))).filter(Boolean);
      if (refused.length) throw new Error(`MongoDB refused read-model indexes: ${refused.join('; ')}`);
    }
    this.refilling = new Map(names.map((name) => [name, rebuilt(name)]));
    try {
      const result = await work();
      for (const name of names) await db.renameCollection(rebuilt(name), live(name), { dropTarget: true });
      return result;
    } catch (error) {
      for (const name of names) await db.dropCollection(rebuilt(name)).catch(() => undefined);
      throw error;
    } finally {
      this.refilling = new Map();
    }
  }

  async clearCollection(name: string): Promise<void> {
    await this.connection.collection(this.refilling.get(name) ?? live(name)).deleteMany({});
  }

  async ping(): Promise<void> {
    await this.connection.db!.admin().ping();
  }

  async close(): Promise<void> {
    await Promise.all(this.indexesMade);
    await this.connection.close();
  }

  /**
   * Each index holds live documents only (`LIVE`, see MongoDocCollection), under a name of its
   * own: the whole-collection indexes of stores written before stay beside them, unused. Documents
   * written before `_live` existed are marked first, once (a checkpoint says it was done).
   */
  private makeIndexes(collection: string, indexes: IndexSpec[]): Array<Promise<string | null>> {
    const native = this.connection.collection(collection);
    // Once per collection (a scan of it), then remembered: not at every start of every instance.
    const done = `live-marked:${collection}`;
    const marked = this.getCheckpoint(done).then(async (already) => {
      if (already) return;
      await native.updateMany({ _deleted: { $ne: true }, _live: { $exists: false } } as never, { $set: LIVE });
      await this.setCheckpoint(done, 1);
    });
    const refusal = (what: string) => (error: Error) => `${collection} (${what}): ${error.message}`;
    return [
      marked.then(() => null, refusal('marking live documents')),
      ...indexes.map((index) => {
        const keys = Object.fromEntries(index.fields.map((f) => [assertFieldName(f), 1]));
        return marked
          .then(() => native.createIndex(keys, { unique: index.unique ?? false, partialFilterExpression: LIVE, name: `live_${index.fields.join('_')}` }))
          .then(() => null, refusal(index.fields.join(', ')));
      }),
    ];
  }
}
