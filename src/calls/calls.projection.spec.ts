import { sqlDateTime } from '../shared/formats';
import { callSpec } from '../testing/call.fixture';
import { AT, projectionSpec } from '../testing/projection-spec';
import { CallsProjection, STUCK_CALL_GRACE_SECONDS } from './calls.projection';

const spec = callSpec({ user_id: 1, assistant_id: 2 });
const initiated = { type: 'CallInitiated', data: { call_id: 7, ...spec } };
const later = '2025-03-01T10:05:00.000Z';
const outcome = {
  type: 'CallOutcomeRecorded',
  data: {
    call_id: 7,
    user_id: 1,
    campaign_id: null,
    lead_id: null,
    from: 'initiated',
    status: 'completed',
    reached: true,
    details: { duration: 42, answered_by: 'human', variables: { topic: 'billing' } },
  },
  occurredAt: later,
};
const atMs = Date.parse(AT);
const initial = {
  id: 7,
  ...spec,
  status: 'initiated',
  duration: 0,
  transcript: null,
  evaluation: null,
  webhook_response: null,
  carrier_cost: 0,
  total_cost: 0,
  answered_by: 'unknown',
  recording_url: null,
  deadline_at: null,
  resend_from: atMs,
  dialed_at: null,
  not_dialed: null,
  provider: null,
  provider_call_id: null,
  failure_reason: null,
  analysis_due_at: null,
  created_at: sqlDateTime(AT),
  updated_at: sqlDateTime(AT),
};

describe('calls projection', () => {
  const { given } = projectionSpec(
    (store) => new CallsProjection(store),
    (p) => p.calls,
  );

  const grace = (spec.max_duration_seconds + STUCK_CALL_GRACE_SECONDS) * 1000;
  const sendAt = '2025-03-01T11:00:00.000Z';
  const resendAt = '2025-03-01T12:00:00.000Z';
  const started = (at: string, sends: number) => ({ type: 'CallDialStarted', data: { call_id: 7, sends, at }, occurredAt: at });

  it('keeps an outbound call as initiated with no deadline, due to be sent until its dial is confirmed', async () => {
    await given(initiated).then([initial]);
  });

  it('counts the deadline from the latest dial send once the dial is confirmed, never from the claim', async () => {
    const sentMs = Date.parse(sendAt);
    await given(initiated, started(sendAt, 1)).then([{ ...initial, resend_from: sentMs, dialed_at: sentMs }]);
    await given(initiated, started(sendAt, 1), { type: 'CallDialSent', data: { call_id: 7 }, occurredAt: sendAt }).then([
      { ...initial, resend_from: null, dialed_at: sentMs, deadline_at: sentMs + grace },
    ]);
    const resentMs = Date.parse(resendAt);
    await given(initiated, started(sendAt, 1), started(resendAt, 2), { type: 'CallDialSent', data: { call_id: 7 }, occurredAt: resendAt }).then([
      { ...initial, resend_from: null, dialed_at: resentMs, deadline_at: resentMs + grace },
    ]);
  });

  it("keeps the runtime's own id of the call once its dial is confirmed under it (docs/real-calls.md)", async () => {
    const sentMs = Date.parse(sendAt);
    const confirmed = { type: 'CallDialSent', data: { call_id: 7, provider_call_id: 'vapi-7' }, occurredAt: sendAt };
    await given({ ...initiated, data: { ...initiated.data, provider: 'vapi' } }, started(sendAt, 1), confirmed).then([
      { ...initial, provider: 'vapi', provider_call_id: 'vapi-7', resend_from: null, dialed_at: sentMs, deadline_at: sentMs + grace },
    ]);
  });

  it('sets the deadline from the latest send when the provider reports before the confirmation', async () => {
    const ringing = { ...outcome, data: { ...outcome.data, status: 'ringing', reached: false, details: {} }, occurredAt: resendAt };
    await given(initiated, started(sendAt, 1), ringing).then([
      {
        ...initial,
        status: 'ringing',
        resend_from: null,
        dialed_at: Date.parse(sendAt),
        deadline_at: Date.parse(sendAt) + grace,
        updated_at: sqlDateTime(resendAt),
      },
    ]);
  });

  it('gives an inbound call its deadline from its start', () =>
    given({ type: 'CallInitiated', data: { call_id: 7, ...spec, type: 'inbound' } }).then([
      { ...initial, type: 'inbound', resend_from: null, deadline_at: atMs + grace },
    ]));

  it('takes an outcome: its status and details, variables merged, no deadline once terminal', () =>
    given(initiated, outcome).then([
      {
        ...initial,
        status: 'completed',
        duration: 42,
        answered_by: 'human',
        variables: { topic: 'billing' },
        deadline_at: null,
        resend_from: null,
        updated_at: sqlDateTime(later),
      },
    ]));

  it('marks a call that ended never dialed, its number listed after the claim', () =>
    given(initiated, { ...outcome, data: { ...outcome.data, status: 'failed', reached: false, details: {}, not_dialed: 'do-not-call' } }).then([
      { ...initial, status: 'failed', deadline_at: null, resend_from: null, not_dialed: 'do-not-call', updated_at: sqlDateTime(later) },
    ]));

  it('shows why a call failed, from the reason its failure was recorded with (docs/real-calls.md)', () =>
    given(initiated, { ...outcome, data: { ...outcome.data, status: 'failed', reached: false, details: {}, reason: 'dial refused: vapi answered 500' } }).then([
      { ...initial, status: 'failed', deadline_at: null, resend_from: null, failure_reason: 'dial refused: vapi answered 500', updated_at: sqlDateTime(later) },
    ]));

  it("erases a person's call: number and variables `[erased]`, the number an earlier refusal named masked, status and times kept", () => {
    const earlier = `dial refused: twilio answered 400: Account not authorized to call ${spec.client_phone_number}. Perhaps you need to enable some international permissions`;
    const failed = { ...outcome, data: { ...outcome.data, status: 'failed', reached: false, details: {}, reason: earlier } };
    const erased = {
      type: 'SubjectErased',
      data: {
        erasure_id: 1,
        user_id: 1,
        subject_key: 'ds_x',
        leads: [],
        contacts: [],
        calls: [7],
        import_rows: [],
        requested_by: { type: 'user', id: 1 },
        completed_at: later,
      },
      occurredAt: later,
    };
    return given(initiated, failed, erased).then([
      {
        ...initial,
        client_phone_number: '[erased]',
        variables: Object.fromEntries(Object.keys(spec.variables).map((name) => [name, '[erased]'])),
        status: 'failed',
        deadline_at: null,
        resend_from: null,
        failure_reason: earlier.replace(spec.client_phone_number, '[number]'),
        updated_at: sqlDateTime(later),
      },
    ]);
  });

  it("keeps the post-call webhook's last answer on the call", () =>
    given(initiated, {
      type: 'WebhookAttemptFinished',
      data: {
        delivery_id: '7-ended',
        call_id: 7,
        user_id: 1,
        campaign_id: null,
        event: 'call.ended',
        attempt: 2,
        status_code: 200,
        body: { ok: true },
        error: null,
        outcome: 'delivered',
        next_attempt_at: null,
      },
      occurredAt: later,
    }).then([{ ...initial, webhook_response: { status_code: 200, body: { ok: true }, attempts: 2, delivered_at: sqlDateTime(later) } }]));
});
