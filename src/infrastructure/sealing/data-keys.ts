import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MasterKey } from '../../shared/sealing/master-keys';

const ENTRY = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/=_-]+)$/;

/** `DATA_KEYS`: `id:base64` entries, comma-separated, the first current; each problem named in `problems`. */
export function parseDataKeys(raw: string, problems: string[]): MasterKey[] {
  const keys: MasterKey[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    const match = ENTRY.exec(entry);
    const key = match ? Buffer.from(match[2], 'base64') : null;
    if (!match || key!.length !== 32) {
      problems.push(`DATA_KEYS must list id:key entries, each key 32 bytes in base64 (got an entry "${entry.split(':')[0]}:…")`);
      continue;
    }
    if (keys.some((known) => known.id === match[1])) problems.push(`DATA_KEYS names the key "${match[1]}" twice`);
    keys.push({ id: match[1], key: key! });
  }
  return keys;
}

export const KEY_FILE = 'data-keys';

/**
 * Single-node mode with no DATA_KEYS: the keys in `DATA_DIR/data-keys` (one `id:base64` per line,
 * the first current), made at first start readable by the service's user alone.
 */
export function keyFileKeys(dataDir: string, problems: string[]): { keys: MasterKey[]; created: string | null } {
  const file = join(dataDir, KEY_FILE);
  if (!existsSync(file)) {
    try {
      writeFileSync(file, `k1:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
      return { keys: parseDataKeys(readFileSync(file, 'utf8').trim(), problems), created: file };
    } catch (error) {
      // Another process starting on the same directory made it first: its key is the key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const lines = readFileSync(file, 'utf8').trim().split('\n').join(',');
  return { keys: parseDataKeys(lines, problems), created: null };
}
