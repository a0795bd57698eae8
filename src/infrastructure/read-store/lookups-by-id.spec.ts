import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AssistantsProjection } from '../../assistants/assistants.projection';
import { CampaignsProjection } from '../../campaigns/campaigns.projection';
import { ToolsProjection } from '../../tools/tools.projection';
import { SqliteDocumentStore } from './sqlite-document-store';

/** Lists and views look documents up by a handful of ids; that must not read every user's documents. */
describe('lookups by id across all users', () => {
  const dir = mkdtempSync(join(tmpdir(), 'by-id-'));
  const store = new SqliteDocumentStore(join(dir, 'read.db'));
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['campaigns', () => new CampaignsProjection(store)],
    ['tools', () => new ToolsProjection(store)],
    ['assistants', () => new AssistantsProjection(store)],
  ])('finds %s by id through an index', (table, declare) => {
    declare();
    const db = (store as unknown as { db: Database.Database }).db;
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT doc FROM rm_${table} WHERE "doc.id" IN (?, ?)`).all(1, 2) as Array<{ detail: string }>;
    const details = plan.map((p) => p.detail).join(' | ');
    expect(details).toContain('USING INDEX');
    expect(details).not.toMatch(/^SCAN/);
  });
});
