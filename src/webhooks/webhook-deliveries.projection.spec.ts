import { AT, NEXT_BATCH, projectionSpec } from '../testing/projection-spec';
import { Filter } from '../shared/ports/document-store.port';
import { WebhookDeliveriesProjection, WebhookDeliveryDocument, deliveryView } from './webhook-deliveries.projection';

const ids = { delivery_id: '7-ended', call_id: 7, user_id: 1, campaign_id: null, event: 'call.ended' };
const requested = { type: 'WebhookRequested', data: { ...ids, url: 'https://hooks.example.com', payload: { event: 'call.ended' } } };
const lease = '2025-03-01T10:00:30.000Z';
const later = '2025-03-01T10:00:05.000Z';
const retryAt = '2025-03-01T10:01:00.000Z';
const pending = {
  id: '7-ended',
  call_id: 7,
  lead_id: null,
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

  describe('erasing a person (docs/privacy.md)', () => {
    const filters: Filter[] = [];
    const { given: givenSpied } = projectionSpec(
      (store) => {
        const projection = new WebhookDeliveriesProjection(store);
        const find = projection.deliveries.find.bind(projection.deliveries);
        projection.deliveries.find = (filter, options) => (filters.push(filter ?? {}), find(filter, options));
        return projection;
      },
      (p) => p.deliveries,
    );
    const number = '+12015550190';
    const lead = (id: number, own: string, contacts: Array<[number, string]> = []) => ({
      id,
      phone_number: own,
      variables: { first_name: `Lead ${id}` },
      secondary_contacts: contacts.map(([contactId, phone_number]) => ({ id: contactId, phone_number })),
    });
    const asked = (id: string, call_id: number | null, user_id: number, payload: { event: string } & Record<string, unknown>) => ({
      type: 'WebhookRequested',
      data: { delivery_id: id, call_id, user_id, campaign_id: 3, event: payload.event, url: 'https://hooks.example.com', payload },
    });
    // The person: lead 5's own number, called by call 7, and contact 9 of lead 6. Lead 8 and call 10 are someone else's.
    const events = [
      asked('7-ended', 7, 1, { event: 'call.ended', call: { id: 7, client_phone_number: number }, lead: lead(5, number) }),
      asked('5-completed', null, 1, { event: 'lead.completed', lead: lead(5, number) }),
      asked('6-completed', null, 1, { event: 'lead.completed', lead: lead(6, '+12015550111', [[9, number]]) }),
      asked('10-ended', 10, 1, { event: 'call.ended', call: { id: 10, client_phone_number: '+12015550122' }, lead: lead(8, '+12015550122') }),
      asked('5-other', null, 2, { event: 'lead.completed', lead: lead(5, number) }),
    ];
    const erased = {
      type: 'SubjectErased',
      data: { user_id: 1, subject_key: 'ds_x', calls: [7], leads: [5], contacts: [{ lead_id: 6, contact_id: 9 }], import_rows: [] },
    };

    it('keeps the lead each body shows', async () => {
      const docs = await givenSpied(...events).documents();
      expect(docs.map(({ id, lead_id }) => [id, lead_id])).toEqual([
        ['10-ended', 8],
        ['5-completed', 5],
        ['5-other', 5],
        ['6-completed', 6],
        ['7-ended', 5],
      ]);
    });

    it('erases the bodies naming the person, found by their calls and leads, and reads no other delivery', async () => {
      filters.length = 0;
      const after = new Map((await givenSpied(...events, NEXT_BATCH, erased).documents()).map((d) => [d.id, d.payload]));
      expect(JSON.stringify(after.get('7-ended'))).not.toContain(number);
      expect(JSON.stringify(after.get('5-completed'))).not.toContain(number);
      expect(after.get('6-completed')).toEqual({
        event: 'lead.completed',
        lead: { ...lead(6, '+12015550111'), secondary_contacts: [{ id: 9, phone_number: '[erased]' }] },
      });
      // Someone else's, and the same lead id in another organisation: untouched.
      expect(after.get('10-ended')).toEqual(events[3].data.payload);
      expect(after.get('5-other')).toEqual(events[4].data.payload);
      // Every read of the projection was by the person's calls or leads, none of the whole organisation (the spec's own listing reads `{}`).
      const reads = filters.filter((filter) => Object.keys(filter).length > 0);
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((filter) => 'call_id' in filter || 'lead_id' in filter)).toBe(true);
    });
  });
});
