import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteKeyStore } from '../infrastructure/sealing/sqlite-key-store';
import { MasterKey, Sealer } from '../shared/sealing/sealer';

interface MadeSealer {
  readonly dir: string;
  readonly sealer: Sealer;
  readonly keys: SqliteKeyStore;
  /** Another instance's sealer on the same key store: it holds no subject's key until it reads one. */
  another(): Promise<Sealer>;
}

/** A started sealer on a key store of its own, in a directory made before each test of the calling suite and removed after it. */
export function sealerForEachTest(prefix: string): MadeSealer {
  const made = {} as { dir: string; keys: SqliteKeyStore; sealer: Sealer; master: MasterKey };
  beforeEach(async () => {
    made.dir = mkdtempSync(join(tmpdir(), prefix));
    made.keys = new SqliteKeyStore(join(made.dir, 'keys.db'));
    made.master = { id: 'k1', key: randomBytes(32) };
    made.sealer = new Sealer(made.keys, [made.master]);
    await made.sealer.start();
  });
  afterEach(async () => {
    await made.keys.close();
    rmSync(made.dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return made.dir;
    },
    get sealer() {
      return made.sealer;
    },
    get keys() {
      return made.keys;
    },
    async another() {
      const sealer = new Sealer(made.keys, [made.master]);
      await sealer.start();
      return sealer;
    },
  };
}
