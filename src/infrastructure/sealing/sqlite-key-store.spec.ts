import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyStoreContract } from '../../testing/contracts/key-store.contract';
import { SqliteKeyStore } from './sqlite-key-store';

const dir = mkdtempSync(join(tmpdir(), 'keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

keyStoreContract(
  'SQLite',
  async () => new SqliteKeyStore(join(dir, 'keys.db')),
  // A destroyed key leaves no byte of itself in the directory (the log emptied and cut, secure_delete).
  async (_store, destroyed) => {
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file)).includes(Buffer.from(destroyed))).toBe(false);
  },
);
