import { projectedForEachTest } from '../testing/projection-spec';
import { expectIndexedWithoutSorting } from '../testing/sqlite-query-plans';
import { WebhookDeliveriesProjection } from './webhook-deliveries.projection';
import { WebhookDeliveriesQueries } from './webhook-deliveries.queries';

describe("when an organisation's n-th delivery was made (docs/privacy.md: a retention sweep's steps)", () => {
  const minute = (m: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + m * 60_000).toISOString();
  // Organisation 1's deliveries each minute from 10:00 to 10:29, organisation 2's in between.
  const made = projectedForEachTest(
    (store) => new WebhookDeliveriesProjection(store),
    () =>
      Array.from({ length: 60 }, (_, i) => ({
        type: 'WebhookRequested',
        stream: `webhook-d${i}`,
        revision: 0,
        occurredAt: minute(Math.floor(i / 2)),
        data: { delivery_id: `d${i}`, call_id: i, user_id: (i % 2) + 1, campaign_id: null, event: 'call.ended', url: 'https://hooks.example.com', payload: {} },
      })),
  );
  const queries = () => new WebhookDeliveriesQueries(made.projection);

  it("answers the n-th of the organisation's own deliveries made at or after the instant, null past its last", async () => {
    expect(await queries().nthMadeSince(1, Date.parse(minute(5)), 3)).toBe(Date.parse(minute(7)));
    expect(await queries().nthMadeSince(2, Date.parse(minute(5)), 25)).toBe(Date.parse(minute(29)));
    expect(await queries().nthMadeSince(1, Date.parse(minute(5)), 26)).toBeNull();
  });

  it("reads the organisation's deliveries by their time through its index, without sorting them", async () => {
    await expectIndexedWithoutSorting(made.store, () => queries().nthMadeSince(1, Date.parse(minute(5)), 3));
  });
});
