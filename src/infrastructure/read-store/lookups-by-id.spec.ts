import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssistantsProjection } from '../../assistants/assistants.projection';
import { CampaignsProjection } from '../../campaigns/campaigns.projection';
import { queryPlans } from '../../testing/sqlite-query-plans';
import { ToolsProjection } from '../../tools/tools.projection';
import { Collection } from './document-store.port';
import { SqliteDocumentStore } from './sqlite-document-store';

/** Answers and views look documents up by a handful of ids; that must not read every user's documents. */
describe('lookups by id across all users', () => {
  const dir = mkdtempSync(join(tmpdir(), 'by-id-'));
  const store = new SqliteDocumentStore(join(dir, 'read.db'));
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['campaigns', (): Collection<object> => new CampaignsProjection(store).campaigns],
    ['tools', (): Collection<object> => new ToolsProjection(store).tools],
    ['assistants', (): Collection<object> => new AssistantsProjection(store).assistants],
  ])('finds %s by id through an index', async (_name, declare) => {
    const collection = declare();
    for (const id of [1, 2, 3]) await collection.upsert(id, { id, user_id: id }, id);
    const { plans, result } = await queryPlans(store, () => collection.find({ id: { in: [1, 3] } }));
    expect(result).toEqual([expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 3 })]);
    expect(plans).toHaveLength(1);
    expect(plans[0]).toContain('USING INDEX');
    expect(plans[0]).not.toMatch(/^SCAN/);
  });
});
