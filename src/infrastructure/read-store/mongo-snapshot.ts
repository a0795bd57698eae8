import type { ClientSession } from 'mongodb';
import type { Connection } from 'mongoose';
import { Snapshot } from '../../shared/ports/document-store.port';
import { assertFieldName } from '../../shared/ports/filter-fields';

type MongoCollection = ReturnType<Connection['collection']>;

/**
 * MongoDB keeps a snapshot readable for `minSnapshotHistoryWindowInSeconds` (300 s by default):
 * past that a read fails with SnapshotTooOld. A longer export moves on to a new snapshot first.
 */
const SNAPSHOT_USE_MS = 240_000;

/**
 * A collection read as of one moment, a page at a time, newest id first: every read runs in a
 * session with snapshot reads (which MongoDB serves on replica sets and sharded clusters, not on
 * a standalone server). Each page starts below the last id read, so an export longer than the
 * server's snapshot window goes on from a newer snapshot with each document once.
 */
export class MongoSnapshot<T extends object> implements Snapshot<T> {
  private session: ClientSession;
  private pinnedAt: number;

  constructor(
    private readonly collection: MongoCollection,
    private readonly newSession: () => ClientSession,
    private readonly filter: Record<string, unknown>,
    private readonly strip: (doc: Record<string, unknown>) => T,
    private readonly now: () => number = Date.now,
  ) {
    this.session = newSession();
    this.pinnedAt = now();
  }

  /** Reads once, so the snapshot is of this moment (a session pins it at its first read, not at its start). */
  async pin(): Promise<void> {
    await this.collection.findOne({}, { session: this.session, projection: { _id: 1 } });
  }

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
    for (let below: unknown = undefined; ;) {
      if (this.now() - this.pinnedAt > SNAPSHOT_USE_MS) await this.renew();
      const filter = below === undefined ? this.filter : { $and: [this.filter, { id: { $lt: below } }] };
      const docs = await this.collection.find(filter, { session: this.session, sort: { id: -1 }, limit: pageSize }).toArray();
      if (docs.length) yield docs.map((doc) => this.strip(doc as Record<string, unknown>));
      if (docs.length < pageSize) return;
      below = docs[docs.length - 1].id;
    }
  }

  async close(): Promise<void> {
    await this.session.endSession();
  }

  private async renew(): Promise<void> {
    await this.session.endSession();
    this.session = this.newSession();
    this.pinnedAt = this.now();
  }
}
