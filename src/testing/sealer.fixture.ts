import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SqliteKeyStore } from '../infrastructure/sealing/sqlite-key-store';
import { MasterKey } from '../shared/sealing/master-keys';
import { Sealer } from '../shared/sealing/sealer';
import { madeInTempDirForEachTest } from './temp-dir';

interface MadeSealer {
  readonly dir: string;
  readonly sealer: Sealer;
  readonly keys: SqliteKeyStore;
  /** Another instance's sealer on the same key store: it holds no subject's key until it reads one. */
  another(): Promise<Sealer>;
}

/** A started sealer on a key store of its own, in a directory made before each test of the calling suite and removed after it. */
export function sealerForEachTest(prefix: string): MadeSealer {
  const made = madeInTempDirForEachTest(
    prefix,
    async (dir) => {
      const keys = new SqliteKeyStore(join(dir, 'keys.db'));
      const master: MasterKey = { id: 'k1', key: randomBytes(32) };
      const sealer = new Sealer(keys, [master]);
      await sealer.start();
      return { keys, master, sealer };
    },
    ({ keys }) => keys.close(),
  );
  return {
    get dir() {
      return made().dir;
    },
    get sealer() {
      return made().sealer;
    },
    get keys() {
      return made().keys;
    },
    async another() {
      const sealer = new Sealer(made().keys, [made().master]);
      await sealer.start();
      return sealer;
    },
  };
}
