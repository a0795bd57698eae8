import { Logger } from '@nestjs/common';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { ConfigError } from '../../shared/config-error';
import { keyFileKeys } from './data-keys';
import { MasterKey } from '../../shared/sealing/master-keys';
import { KeyStore } from '../../shared/ports/key-store.port';
import { Sealer } from '../../shared/sealing/sealer';
import { SqliteKeyStore } from './sqlite-key-store';

export const KEYS_FILE = 'keys.db';

/** The key store: a file of its own beside the embedded stores, or the MongoDB read store's database. */
export async function openKeyStore(config: AppConfig): Promise<KeyStore> {
  if (config.readStore === 'mongodb') {
    const mongoose = (await import('mongoose')).default;
    const { MongoKeyStore } = await import('./mongo-key-store');
    return new MongoKeyStore(await mongoose.createConnection(config.mongodbUrl!, { serverSelectionTimeoutMS: 5000 }).asPromise());
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteKeyStore(join(config.dataDir, KEYS_FILE));
}

/** DATA_KEYS, or single-node mode's key file (made at first start, its path logged). */
export function masterKeys(config: AppConfig): MasterKey[] {
  if (config.dataKeys.length) return config.dataKeys;
  const problems: string[] = [];
  mkdirSync(config.dataDir, { recursive: true });
  const { keys, created } = keyFileKeys(config.dataDir, problems);
  if (problems.length) throw new ConfigError(problems.map((problem) => problem.replace('DATA_KEYS', `The key file in ${config.dataDir}`)));
  if (created) new Logger('Keys').warn(`Made a data key file at ${created}: keep a copy of it apart from the data; the secrets cannot be read without it`);
  return keys;
}

export async function openSealer(config: AppConfig, keys: KeyStore): Promise<Sealer> {
  const sealer = new Sealer(keys, masterKeys(config));
  await sealer.start();
  return sealer;
}
