import { Connection } from 'mongoose';
import type { ClientSession } from 'mongodb';
import { Collection, DocId, DocumentView, Filter, FindOptions, Snapshot, noView } from '../../shared/ports/document-store.port';
import { MongoSnapshot } from './mongo-snapshot';
import { assertFieldName, isRange } from '../../shared/ports/filter-fields';

export type MongoCollection = ReturnType<Connection['collection']>;

export const DUPLICATE_KEY = 11000;

/**
 * Live documents carry `_live: true`; a deleted one stays as a tombstone (`_deleted`, no `_live`)
 * with its deletion's position. Every read asks for `_live: true`, which the read models'
 * indexes hold as their partial filter (MongoDB takes no `$ne` there), so a filtered count or
 * page is answered from an index, and tombstones neither fill nor collide in unique indexes.
 */
export const LIVE = { _live: true } as const;

function toMongoFilter(filter: Filter = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...LIVE };
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
  const { _id, _pos, _live, ...rest } = doc;
  return rest as T;
}

/**
 * A read-model collection in MongoDB. Every write is guarded by the position of the event behind
 * it, in one conditional statement, so instances applying the same events concurrently converge
 * on what one would have written alone. `native` answers the collection written now (a rebuild's
 * new one while it runs).
 */
export class MongoDocCollection<T extends object> implements Collection<T> {
  constructor(
    private readonly native: () => MongoCollection,
    private readonly name: string,
    private readonly view?: DocumentView<T>,
    /** A session of snapshot reads, for `snapshot`. */
    private readonly snapshotSession?: () => ClientSession,
  ) {}

  async get(id: DocId): Promise<T | null> {
    return strip<T>(await this.native().findOne({ _id: String(id), ...LIVE } as never));
  }

  async getMany(ids: DocId[]): Promise<T[]> {
    if (!ids.length) return [];
    const docs = await this.native()
      .find({ _id: { $in: [...new Set(ids.map(String))] }, ...LIVE } as never)
      .toArray();
    return docs.map((d) => strip<T>(d as Record<string, unknown>)!);
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<T[]> {
    // MongoDB reads `limit(0)` as no limit; the port's 0 is no documents.
    if (options.limit === 0) return [];
    let cursor = this.native().find(toMongoFilter(filter));
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
    if (!view) throw noView(this.name);
    return (await this.find(filter, options)).map((doc) => JSON.stringify(view(doc)));
  }

  async count(filter?: Filter): Promise<number> {
    return this.native().countDocuments(toMongoFilter(filter));
  }

  async snapshot(filter?: Filter): Promise<Snapshot<T>> {
    if (!this.snapshotSession) throw new Error(`Collection ${this.name} takes no snapshots`);
    const snapshot = new MongoSnapshot<T>(this.native(), this.snapshotSession, toMongoFilter(filter), (doc) => strip<T>(doc)!);
    await snapshot.pin();
    return snapshot;
  }

  async countBy(field: string, filter?: Filter): Promise<Map<string | number, number>> {
    const groups = await this.native()
      .aggregate<{ _id: string | number | null; n: number }>([
        { $match: toMongoFilter(filter) },
        { $group: { _id: `$${assertFieldName(field)}`, n: { $sum: 1 } } },
      ])
      .toArray();
    return new Map(groups.flatMap(({ _id, n }) => (_id === null ? [] : [[_id, n] as const])));
  }

  async upsert(id: DocId, doc: T, position: number): Promise<boolean> {
    try {
      const result = await this.native().replaceOne(
        { _id: String(id), _pos: { $lt: position } } as never,
        { ...doc, _pos: position, _live: true },
        { upsert: true },
      );
      return result.modifiedCount + result.upsertedCount > 0;
    } catch (error) {
      // The guard did not match a stored document (or tombstone), so the upsert tried to insert its id again.
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  async add(id: DocId, doc: T, position: number): Promise<void> {
    try {
      await this.native().insertOne({ ...doc, _id: String(id), _pos: position, _live: true } as never);
    } catch (error) {
      // The id holds a document or a tombstone already: it stays.
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
    }
  }

  async delete(id: DocId, position: number): Promise<boolean> {
    try {
      const before = await this.native().findOneAndReplace(
        { _id: String(id), _pos: { $lte: position } } as never,
        { _pos: position, _deleted: true },
        { upsert: true, returnDocument: 'before' },
      );
      return !!before && before._deleted !== true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }
}
