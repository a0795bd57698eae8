import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteKeyStore } from '../infrastructure/sealing/sqlite-key-store';
import { Sealer } from '../shared/sealing/sealer';

/** A started sealer on a key store of its own, in a directory made before each test of the calling suite and removed after it. */
export function sealerForEachTest(prefix: string): { readonly dir: string; readonly sealer: Sealer } {
  const made = {} as { dir: string; keys: SqliteKeyStore; sealer: Sealer };
  beforeEach(async () => {
    made.dir = mkdtempSync(join(tmpdir(), prefix));
    made.keys = new SqliteKeyStore(join(made.dir, 'keys.db'));
    made.sealer = new Sealer(made.keys, [{ id: 'k1', key: randomBytes(32) }]);
    await made.sealer.start();
  });
  afterEach(async () => {
    await made.keys.close();
    rmSync(made.dir, { recursive: true, force: true });
  });
  return made;
}
