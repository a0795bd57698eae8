import { AT, projectionSpec } from '../testing/projection-spec';
import { WebhookDeliveriesProjection, WebhookDeliveryDocument, deliveryView } from './webhook-deliveries.projection';

const ids = { delivery_id: '7-ended', call_id: 7, user_id: 1, campaign_id: null, event: 'call.ended' };
const requested = { type: 'WebhookRequested', data: { ...ids, url: 'https://hooks.example.com', payload: { event: 'call.ended' } } };
const lease = '2025-03-01T10:00:30.000Z';
const later = '2025-03-01T10:00:05.000Z';
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
  last_status_code: null,
  last_error: null,
  delivered_at: null,
  created_at: AT,
  attempt_log: [],
};
const started = { type: 'WebhookAttemptStarted', data: { ...ids, attempt: 1, lease_until: lease } };
const finished = (outcome: string, status_code: number | null, next_attempt_at: string | null, error: string | null = null) => ({
  type: 'WebhookAttemptFinished',
  data: { ...ids, attempt: 1, status_code, body: null, error, outcome, next_attempt_at },
  occurredAt: later,
});

describe('webhook deliveries projection', () => {
  const { given } = projectionSpec(
    (store) => new WebhookDeliveriesProjection(store),
    (p) => p.deliveries,
  );

  it('keeps a delivery pending from its request, due at once', () => given(requested).then([pending]));

  it('follows its attempts: leased while one runs, then due again or done, each attempt logged', async () => {
    await given(requested, started).then([{ ...pending, attempts: 1, next_attempt_at: Date.parse(lease) }]);
    const retried = { attempt: 1, status_code: null, error: 'timeout', outcome: 'retrying', at: later };
    await given(requested, started, finished('retrying', null, retryAt, 'timeout')).then([
      { ...pending, attempts: 1, status: 'retrying', next_attempt_at: Date.parse(retryAt), last_error: 'timeout', attempt_log: [retried] },
    ]);
    const delivered = { attempt: 1, status_code: 200, error: null, outcome: 'delivered', at: later };
    await given(requested, started, finished('delivered', 200, null)).then([
      { ...pending, attempts: 1, status: 'delivered', next_attempt_at: null, last_status_code: 200, delivered_at: later, attempt_log: [delivered] },
    ]);
  });

  it('makes a delivery that ended pending again when it is redelivered', () =>
    given(requested, started, finished('failed', 404, null), { type: 'WebhookRedeliveryRequested', data: { ...ids, from_attempt: 1, due_at: retryAt } }).then([
      {
        ...pending,
        attempts: 1,
        status: 'pending',
        next_attempt_at: Date.parse(retryAt),
        last_status_code: 404,
        attempt_log: [{ attempt: 1, status_code: 404, error: null, outcome: 'failed', at: later }],
      },
    ]));

  it('shows a retry still due as pending, and no due time once it ended', () => {
    const doc = { ...pending, status: 'retrying', next_attempt_at: Date.parse(retryAt) } as WebhookDeliveryDocument;
    expect(deliveryView(doc)).toMatchObject({ status: 'pending', next_attempt_at: retryAt });
    expect(deliveryView({ ...doc, status: 'failed' })).toMatchObject({ status: 'failed', next_attempt_at: null });
  });
});
