import { isoMicros } from '../shared/formats';
import { AT, projectionSpec } from '../testing/projection-spec';
import { CAMPAIGN_DEFAULTS } from './campaign.events';
import { CampaignsProjection } from './campaigns.projection';

const ids = { campaign_id: 1, user_id: 1 };
const created = { type: 'CampaignCreated', data: { ...ids, settings: { ...CAMPAIGN_DEFAULTS, name: 'Spring', assistant_id: 4 } } };
const later = '2025-03-01T11:00:00.000Z';
const base = { id: 1, user_id: 1, ...CAMPAIGN_DEFAULTS, name: 'Spring', assistant_id: 4, created_at: isoMicros(AT) };

describe('campaigns projection', () => {
  const { given } = projectionSpec(
    (store) => new CampaignsProjection(store),
    (p) => p.campaigns,
  );

  it('keeps a campaign as created, a draft', () => given(created).then([{ ...base, status: 'draft', updated_at: isoMicros(AT) }]));

  it("keeps whether its leads' numbers were reserved from its start (not said by campaigns made before)", () =>
    given({ ...created, data: { ...created.data, numbers_reserved: true } }).then([
      { ...base, status: 'draft', numbers_reserved: true, updated_at: isoMicros(AT) },
    ]));

  it('follows its settings and status', () =>
    given(created, { type: 'CampaignUpdated', data: { ...ids, changes: { max_retries: 1 } } }, { type: 'CampaignStarted', data: ids, occurredAt: later }).then([
      { ...base, max_retries: 1, status: 'in-progress', stopped_reason: null, started_at: later, updated_at: isoMicros(later) },
    ]));

  it('keeps why it stopped: the user, or its failure breaker', async () => {
    const byBreaker = { type: 'CampaignStopped', data: { ...ids, reason: 'failure-rate', failed: 12, window: 20 } };
    await given(created, byBreaker).then([{ ...base, status: 'stopped', stopped_reason: 'failure-rate', updated_at: isoMicros(AT) }]);
    await given(created, { type: 'CampaignStopped', data: ids }).then([{ ...base, status: 'stopped', stopped_reason: 'user', updated_at: isoMicros(AT) }]);
  });

  it('shows the last dialing failure until the dialer recovers', async () => {
    const failed = { type: 'CampaignDialingFailed', data: { ...ids, message: 'bad window', retry_at: later } };
    await given(created, failed).then([{ ...base, status: 'draft', updated_at: isoMicros(AT), last_error: { message: 'bad window', at: isoMicros(AT) } }]);
    await given(created, failed, { type: 'CampaignDialingRecovered', data: ids }).then([
      { ...base, status: 'draft', updated_at: isoMicros(AT), last_error: null },
    ]);
  });
});
