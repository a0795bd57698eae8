import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atomicBatchContract, documentStoreContract } from './document-store.contract';
import { SqliteDocumentStore } from './sqlite-document-store';

const dir = mkdtempSync(join(tmpdir(), 'rs-contract-'));
const harness = {
  open: async () => new SqliteDocumentStore(join(dir, 'read.db')),
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

documentStoreContract('embedded SQLite', harness);
atomicBatchContract('embedded SQLite', harness);

describe('embedded SQLite query plans', () => {
  it('answers an indexed filter and sort from the index, not a table scan', async () => {
    const store = new SqliteDocumentStore(join(dir, 'plan.db'));
    store.collection('leads', [{ fields: ['user_id', 'campaign_id', 'id'] }]);
    const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT doc FROM rm_leads WHERE json_extract(doc, '$.user_id') = 1
         AND json_extract(doc, '$.campaign_id') = 2 ORDER BY json_extract(doc, '$.id') ASC LIMIT 10`,
      )
      .all() as Array<{ detail: string }>;
    const details = plan.map((p) => p.detail).join(' | ');
    expect(details).toContain('USING INDEX rm_leads__user_id__campaign_id__id');
    expect(details).not.toContain('TEMP B-TREE');
    await store.close();
  });

  it('refills a table made again with every index it had', async () => {
    const store = new SqliteDocumentStore(join(dir, 'refill.db'));
    const leads = store.collection('leads', [{ fields: ['user_id', 'id'] }, { fields: ['campaign_id'], unique: true }]);
    const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
    const indexes = () =>
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_leads' AND sql IS NOT NULL ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
    const before = indexes();
    expect(before).toHaveLength(2);
    await leads.upsert(1, { id: 1, user_id: 1, campaign_id: 7 }, 1);
    await store.refill(['leads'], async () => {
      expect(indexes()).toEqual(before);
      expect(await leads.get(1)).toBeNull();
      await leads.upsert(2, { id: 2, user_id: 1, campaign_id: 7 }, 2);
    });
    expect(indexes()).toEqual(before);
    expect(await leads.count()).toBe(1);
    await store.close();
  });
});

describe('embedded SQLite across processes', () => {
  it('waits for another process holding the write lock, then sees its commit', async () => {
    const file = join(dir, 'shared.db');
    const store = new SqliteDocumentStore(file);
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(file)});
         db.exec('BEGIN IMMEDIATE');
         db.prepare("INSERT INTO checkpoints (name, position) VALUES ('other', 7)").run();
         console.log('locked');
         setTimeout(() => { db.exec('COMMIT'); db.close(); }, 300);`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const outcome = await store.exclusive('projections', async () => store.getCheckpoint('other'));
    expect(outcome).toEqual({ ran: true, result: 7 });
    await new Promise((r) => holder.once('exit', r));
    await store.close();
  });
});
