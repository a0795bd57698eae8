import type { Connection } from 'mongoose';
import { DUPLICATE_KEY } from '../read-store/mongo-collection';
import { KeyStore, StoredDataKey } from '../../shared/ports/key-store.port';

type Stored = StoredDataKey & { _id: string };

/** Data keys in the `data_keys` collection of the read store's MongoDB, shared by every instance. */
export class MongoKeyStore implements KeyStore {
  constructor(private readonly connection: Connection) {}

  private get keys() {
    return this.connection.collection<Stored>('data_keys');
  }

  async all(): Promise<StoredDataKey[]> {
    const docs = await this.keys.find({}).sort({ created_at: 1, _id: 1 }).toArray();
    return docs.map(({ _id, ...key }) => key as StoredDataKey);
  }

  async allBut(purposes: readonly string[]): Promise<StoredDataKey[]> {
    const docs = await this.keys
      .find({ purpose: { $nin: [...purposes] } })
      .sort({ created_at: 1, _id: 1 })
      .toArray();
    return docs.map(({ _id, ...key }) => key as StoredDataKey);
  }

  async masterIds(): Promise<string[]> {
    const groups = await this.keys.aggregate<{ _id: string }>([{ $match: { master_id: { $ne: '' } } }, { $group: { _id: '$master_id' } }]).toArray();
    return groups.map((group) => group._id);
  }

  async get(id: string): Promise<StoredDataKey | null> {
    const doc = await this.keys.findOne({ _id: id });
    if (!doc) return null;
    const { _id, ...key } = doc;
    return key as StoredDataKey;
  }

  async getMany(ids: readonly string[]): Promise<StoredDataKey[]> {
    if (!ids.length) return [];
    const docs = await this.keys.find({ _id: { $in: [...ids] } }).toArray();
    return docs.map(({ _id, ...key }) => key as StoredDataKey);
  }

  async add(key: StoredDataKey): Promise<StoredDataKey> {
    try {
      await this.keys.insertOne({ ...key, _id: key.id });
    } catch (error) {
      // Another instance stored its key of that id first: that one is the key.
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
    }
    return (await this.get(key.id))!;
  }

  async replace(key: StoredDataKey): Promise<void> {
    await this.keys.updateOne({ _id: key.id }, { $set: { master_id: key.master_id, wrapped: key.wrapped } });
  }

  async destroyBetween(first: string, end: string): Promise<number> {
    return (await this.keys.deleteMany({ _id: { $gte: first, $lt: end } })).deletedCount;
  }

  async erase(id: string, at: string): Promise<void> {
    // One write whether the key is there or not (a pipeline update: the creation time kept if it is).
    await this.keys.updateOne({ _id: id }, [{ $set: { id, master_id: '', wrapped: '', purpose: 'erased', created_at: { $ifNull: ['$created_at', at] } } }], {
      upsert: true,
    });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
