import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../infrastructure/sqlite/open-sqlite';

/** A store file (`read.db`, WAL) in a new temporary folder, made with `schema` and closed again. */
export function sqliteFileWith(prefix: string, schema: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = join(dir, 'read.db');
  const db = openSqlite(file);
  db.exec(schema);
  db.close();
  return { dir, file };
}
