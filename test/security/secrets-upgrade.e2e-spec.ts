import Database from 'better-sqlite3';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Sealer } from '../../src/shared/sealing/sealer';
import { isSealed } from '../../src/shared/sealing/sealed-values';
import { keyFileKeys } from '../../src/infrastructure/sealing/data-keys';
import { SqliteKeyStore } from '../../src/infrastructure/sealing/sqlite-key-store';
import { UsersQueries } from '../../src/users/users.queries';
import { eventually } from '../support/fake-provider';
import { crmTool } from '../support/all-day-campaign';
import { startTestApp } from '../support/test-app';

const holding = (dir: string, text: string) => readdirSync(dir).filter((file) => readFileSync(join(dir, file)).includes(text));

/** Each sealed string in `value`, at any depth. */
const sealedIn = (value: unknown): string[] =>
  isSealed(value) ? [value] : value !== null && typeof value === 'object' ? Object.values(value).flatMap(sealedIn) : [];

/**
 * Turns a data directory back into what the build before sealing wrote: every sealed value in the
 * log and the read models in plain text, no key file or key store, the read models at the versions
 * they had then, the upgrade not marked.
 */
async function asTheEarlierBuildWroteIt(dataDir: string): Promise<void> {
  const keys = new SqliteKeyStore(join(dataDir, 'keys.db'));
  const sealer = new Sealer(keys, keyFileKeys(dataDir, []).keys);
  await sealer.start();
  const events = new Database(join(dataDir, 'events.db'));
  const plain = new Map<string, string>();
  for (const row of events.prepare("SELECT data FROM events WHERE type IN ('UserRegistered', 'ToolCreated', 'ToolUpdated')").all() as Array<{ data: string }>)
    for (const sealed of sealedIn(JSON.parse(row.data))) plain.set(sealed, await sealer.open(sealed));
  const reads = new Database(join(dataDir, 'read.db'));
  for (const [sealed, value] of plain) {
    events.prepare('UPDATE events SET data = replace(data, ?, ?)').run(sealed, value);
    for (const { name } of reads.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>)
      for (const { name: column, type } of reads.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string; type: string }>)
        if (type === 'TEXT' || type === '')
          reads.prepare(`UPDATE "${name}" SET "${column}" = replace("${column}", ?, ?) WHERE typeof("${column}") = 'text'`).run(sealed, value);
  }
  events.prepare("DELETE FROM sequences WHERE name = 'upgrade:secrets-sealed'").run();
  reads.prepare("UPDATE checkpoints SET position = 2 WHERE name = 'version:users'").run();
  reads.prepare("DELETE FROM checkpoints WHERE name = 'version:tools'").run();
  for (const db of [events, reads]) {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
  await keys.close();
  rmSync(join(dataDir, 'keys.db'));
  rmSync(join(dataDir, 'data-keys'));
}

/** docs/privacy.md: a store written before secrets were sealed is sealed in place at the first start of this version. */
describe('the upgrade that seals an earlier store', () => {
  it('leaves no secret in plain text in any file, and every secret still opens to what it was', async () => {
    let t = await startTestApp();
    const dataDir = t.dataDir;
    try {
      const user = await t.createUser();
      const tool = await t.request('POST', '/api/user/tools', {
        token: user.token,
        body: crmTool('crm-credential-0815'),
      });
      expect(tool.status).toBe(201);
      await t.stop();
      await asTheEarlierBuildWroteIt(dataDir);
      expect(holding(dataDir, user.webhook_secret).sort()).toEqual(['events.db', 'read.db']);
      expect(holding(dataDir, 'crm-credential-0815').sort()).toEqual(['events.db', 'read.db']);

      t = await startTestApp({}, { dataDir });
      await eventually(
        async () => holding(dataDir, user.webhook_secret).length === 0 && holding(dataDir, 'crm-credential-0815').length === 0,
        10_000,
        'no plain secret left',
      );
      const stored = (await t.app.get(UsersQueries).get(user.organisation_id))!;
      expect(isSealed(stored.webhook_secret)).toBe(true);
      expect(await t.app.get(Sealer).open(stored.webhook_secret)).toBe(user.webhook_secret);
      expect(
        (await t.request('GET', '/api/user/tools', { token: user.token })).body.data?.[0]?.headers ??
          (await t.request('GET', '/api/user/tools', { token: user.token })).body[0].headers,
      ).toEqual([{ name: 'Authorization', value: '[secret]' }]);
    } finally {
      await t.close();
    }
  }, 60_000);
});
