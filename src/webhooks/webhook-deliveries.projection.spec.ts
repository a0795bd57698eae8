import { AT, projectionSpec } from '../testing/projection-spec';
import { WebhookDeliveriesProjection } from './webhook-deliveries.projection';

const ids = { delivery_id: '7-ended', call_id: 7, user_id: 1, campaign_id: null, event: 'call.ended' };
const requested = { type: 'WebhookRequested', data: { ...ids, url: 'https://hooks.example.com', payload: { event: 'call.ended' } } };
const lease = '2025-03-01T10:00:30.000Z';
const retryAt = '2025-03-01T10:01:00.000Z';
const pending = {
  id: '7-ended',
  call_id: 7,
  user_id: 1,
  event: 'call.ended',
  url: 'https://hooks.example.com',
  payload: { event: 'call.ended' },
  attempts: 0,
  status: 'pending',
  next_attempt_at: Date.parse(AT),
};

describe('webhook deliveries projection', () => {
  const { given } = projectionSpec(
    (store) => new WebhookDeliveriesProjection(store),
    (p) => p.deliveries,
  );

  it('keeps a delivery pending from its request, due at once', () => given(requested).then([pending]));

  it('follows its attempts: leased while one runs, then due again or done', async () => {
    const started = { type: 'WebhookAttemptStarted', data: { ...ids, attempt: 1, lease_until: lease } };
    await given(requested, started).then([{ ...pending, attempts: 1, next_attempt_at: Date.parse(lease) }]);
    const retrying = {
      type: 'WebhookAttemptFinished',
      data: { ...ids, attempt: 1, status_code: 500, body: null, error: null, outcome: 'retrying', next_attempt_at: retryAt },
    };
    await given(requested, started, retrying).then([{ ...pending, attempts: 1, status: 'retrying', next_attempt_at: Date.parse(retryAt) }]);
    const delivered = {
      type: 'WebhookAttemptFinished',
      data: { ...ids, attempt: 1, status_code: 200, body: null, error: null, outcome: 'delivered', next_attempt_at: null },
    };
    await given(requested, started, delivered).then([{ ...pending, attempts: 1, status: 'delivered', next_attempt_at: null }]);
  });
});
