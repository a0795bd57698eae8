import type { ClientSession } from 'mongodb';
import type { Connection } from 'mongoose';
import { Snapshot } from './document-store.port';
import { assertFieldName } from './filter-fields';

type MongoCollection = ReturnType<Connection['collection']>;

/**
 * One moment of a MongoDB collection: every read runs in a session with snapshot reads (which
 * MongoDB serves on replica sets and sharded clusters, not on a standalone server), newest id
 * first, a batch at a time.
 */
export class MongoSnapshot<T> implements Snapshot<T> {
  constructor(
    private readonly collection: MongoCollection,
    private readonly session: ClientSession,
    private readonly filter: Record<string, unknown>,
    private readonly strip: (doc: Record<string, unknown>) => T,
  ) {}

  async keysOf(field: string): Promise<string[]> {
    const keys = await this.collection
      .aggregate<{ _id: string }>(
        [
          { $match: this.filter },
          { $project: { k: { $objectToArray: { $ifNull: [`$${assertFieldName(field)}`, {}] } } } },
          { $unwind: '$k' },
          { $group: { _id: '$k.k' } },
          { $sort: { _id: 1 } },
        ],
        { session: this.session },
      )
      .toArray();
    return keys.map((key) => key._id);
  }

  async *pages(pageSize = 1000): AsyncIterable<T[]> {
    const cursor = this.collection.find(this.filter, { session: this.session, sort: { id: -1 }, batchSize: pageSize });
    let page: T[] = [];
    for await (const doc of cursor) {
      page.push(this.strip(doc as Record<string, unknown>));
      if (page.length === pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length) yield page;
  }

  async close(): Promise<void> {
    await this.session.endSession();
  }
}
