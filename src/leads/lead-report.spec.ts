import { projectionSpec } from '../testing/projection-spec';
import { LeadsProjection } from './leads.projection';

const report = projectionSpec(
  (store) => new LeadsProjection(store),
  (p) => p.report.campaigns,
  'campaign_id',
);
const created = (lead_id: number, campaign_id = 1) => ({
  type: 'LeadCreated',
  data: { lead_id, user_id: 9, campaign_id, phone_number: `+1201555000${lead_id}`, variables: {}, secondary_contacts: [] },
});
const ids = (lead_id: number, campaign_id = 1) => ({ lead_id, user_id: 9, campaign_id });

describe("the campaign report's lead counters (docs/reports.md)", () => {
  it('counts live leads by status and the attempt that completed each, across moves and deletions', () =>
    report
      .given(
        created(1),
        created(2),
        created(3),
        created(4),
        { type: 'LeadAttemptFailed', data: { ...ids(1), attempts: 1, next_due_at: '2025-03-01T11:00:00.000Z' } },
        { type: 'LeadReached', data: { ...ids(1), call_id: 5, secondary_contact_id: null } },
        { type: 'LeadReached', data: { ...ids(2), call_id: 6, secondary_contact_id: null } },
        { type: 'LeadReachedMaxRetries', data: { ...ids(3), attempts: 3 } },
        { type: 'LeadMovedToCampaign', data: { ...ids(4, 2), from_campaign_id: 1 } },
        { type: 'LeadDeleted', data: ids(2) },
      )
      .then([
        { campaign_id: 1, counts: { total: 2, 's:completed': 1, 'a:2': 1, 's:reached-max-retries': 1 } },
        { campaign_id: 2, counts: { total: 1, 's:created': 1 } },
      ]));
});
