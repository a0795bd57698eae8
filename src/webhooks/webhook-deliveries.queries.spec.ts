import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';
import { queryPlans } from '../testing/sqlite-query-plans';
import { WebhookDeliveriesProjection } from './webhook-deliveries.projection';
import { WebhookDeliveriesQueries } from './webhook-deliveries.queries';

describe("when an organisation's n-th delivery was made (docs/privacy.md: a retention sweep's steps)", () => {
  let dir: string;
  let store: SqliteDocumentStore;
  let queries: WebhookDeliveriesQueries;
  const minute = (m: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + m * 60_000).toISOString();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deliveries-nth-'));
    store = new SqliteDocumentStore(join(dir, 'read.db'));
    const projection = new WebhookDeliveriesProjection(store);
    // Organisation 1's deliveries each minute from 10:00 to 10:29, organisation 2's in between.
    await store.exclusive('projections', async () => {
      for (let i = 0; i < 60; i++) {
        const data = {
          delivery_id: `d${i}`,
          call_id: i,
          user_id: (i % 2) + 1,
          campaign_id: null,
          event: 'call.ended',
          url: 'https://hooks.example.com',
          payload: {},
        };
        const occurredAt = minute(Math.floor(i / 2));
        await projection.apply({
          id: `e${i}`,
          stream: `webhook-d${i}`,
          revision: 0,
          position: i + 1,
          type: 'WebhookRequested',
          schemaVersion: 1,
          data,
          metadata: {},
          occurredAt,
        });
      }
    });
    queries = new WebhookDeliveriesQueries(projection);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers the n-th of the organisation's own deliveries made at or after the instant, null past its last", async () => {
    expect(await queries.nthMadeSince(1, Date.parse(minute(5)), 3)).toBe(Date.parse(minute(7)));
    expect(await queries.nthMadeSince(2, Date.parse(minute(5)), 25)).toBe(Date.parse(minute(29)));
    expect(await queries.nthMadeSince(1, Date.parse(minute(5)), 26)).toBeNull();
  });

  it("reads the organisation's deliveries by their time through its index, without sorting them", async () => {
    const { plans } = await queryPlans(store, () => queries.nthMadeSince(1, Date.parse(minute(5)), 3));
    expect(plans.join('\n')).toMatch(/USING INDEX/);
    expect(plans.join('\n')).not.toMatch(/TEMP B-TREE|SCAN/);
  });
});
