import { SubjectErased } from '../shared/sealing/subject-erased.event';
import { erasedCall, expiredCall } from './call-erasure';
import { RETAINED_VALUES_ERASED_TYPES, RetainedValuesErased } from '../shared/sealing/retained-values-erased.event';
import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { EveryField } from '../shared/every-field';
import { sqlDateTime } from '../shared/formats';
import { isTerminal } from './call-status';
import { AnsweredBy, CallEvent, CallProvider, CallSpec, CallStatus, NotDialedReason } from './call.events';
import { WebhookAnswered } from './webhook-answers';
import { CallReportCounters } from './call-report';

/** Seconds past `max_call_duration` after which an open call is failed (docs/dialing.md). */
export const STUCK_CALL_GRACE_SECONDS = 120;

/** How long a call's webhook waits for the runtime's analysis after the call's end (docs/real-calls.md). */
export const ANALYSIS_WAIT_SECONDS = 300;

export interface CallDocument extends Omit<CallSpec, 'provider' | 'provider_call_id'> {
  id: number;
  /** docs/real-calls.md: who placed the call, its id there, and why it failed (null unless it did). */
  provider: CallProvider | null;
  provider_call_id: string | null;
  failure_reason: string | null;
  status: CallStatus;
  duration: number;
  transcript: string | null;
  evaluation: Record<string, unknown> | null;
  webhook_response: Record<string, unknown> | null;
  carrier_cost: number;
  total_cost: number;
  answered_by: AnsweredBy;
  recording_url: string | null;
  /**
   * Epoch ms after which the call, still open, is failed: `max_call_duration` + 120 s from its
   * latest dial send (docs/dialing.md). Null once terminal, and while an outbound call's dial is
   * not confirmed: such a call may never have been dialed, and belongs to the resend sweep.
   */
  deadline_at: number | null;
  /** Epoch ms since which an outbound call's dial waits for its confirmation (created, or sent last); null once confirmed or reported on. */
  resend_from: number | null;
  /** Epoch ms of the latest dial send; null before the first (and in documents older than the field). */
  dialed_at?: number | null;
  /** Epoch ms after which an analysis awaited since the call's end is given up on; null when none is awaited (absent in older documents). */
  analysis_due_at?: number | null;
  /** Why the call ended without being dialed; absent in documents older than the field. */
  not_dialed?: NotDialedReason | null;
  created_at: string;
  updated_at: string;
}

@Projection()
@Injectable()
export class CallsProjection implements ReadModelProjection {
  readonly name = 'calls';
  readonly collections = ['calls', 'call_report'];
  readonly eventTypes: readonly (CallEvent | WebhookAnswered | SubjectErased | RetainedValuesErased)['type'][] = [
    'SubjectErased',
    ...RETAINED_VALUES_ERASED_TYPES,
    'CallInitiated',
    'CallOutcomeRecorded',
    'CallDialSent',
    'CallDialResent',
    'CallDialStarted',
    'CallAnalyzed',
    'CallAnalysisTimedOut',
    'CallRecordingSaved',
    'WebhookAttemptFinished',
  ];
  /** 2: `resend_from`; 3: deadlines from the latest dial send, `dialed_at`; 4: `provider`, `provider_call_id`, `failure_reason`, `analysis_due_at`; 5: the report's counters. */
  readonly version = 5;
  readonly calls: Collection<CallDocument>;
  readonly report: CallReportCounters;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.report = new CallReportCounters(store);
    // A page of one filter reads `(filter, id)` in order; a filter paired with `status` reads
    // `(filter, status, id)`: the page and its total come from the index alone.
    this.calls = store.collection<CallDocument>('calls', {
      indexes: [
        { fields: ['user_id', 'id'] },
        { fields: ['user_id', 'status', 'id'] },
        { fields: ['user_id', 'type', 'id'] },
        { fields: ['user_id', 'type', 'status', 'id'] },
        { fields: ['user_id', 'client_phone_number', 'id'] },
        { fields: ['user_id', 'assistant_id', 'id'] },
        { fields: ['user_id', 'assistant_id', 'status', 'id'] },
        { fields: ['user_id', 'campaign_id', 'id'] },
        { fields: ['user_id', 'campaign_id', 'status', 'id'] },
        { fields: ['user_id', 'created_at'] },
        { fields: ['deadline_at'] },
        { fields: ['resend_from'] },
        { fields: ['provider_call_id'] },
        { fields: ['analysis_due_at'] },
      ],
      view: callView,
    });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    if (recorded.type === 'SubjectErased') return this.erase((recorded as RecordedEvent & SubjectErased).data.calls, recorded.position);
    if (recorded.type === 'RetainedValuesErased') return this.expire((recorded as RecordedEvent & RetainedValuesErased).data, recorded.position);
    const event = recorded as unknown as CallEvent;
    const at = sqlDateTime(recorded.occurredAt);
    if (event.type === 'CallInitiated') {
      const spec = event.data;
      // One literal of the spec's fields, typed to name every field: a rebuild makes one per call,
      // and a rest and a spread of them cost twice as much.
      const doc: EveryField<CallDocument> = {
        id: spec.call_id,
        user_id: spec.user_id,
        assistant_id: spec.assistant_id,
        assistant_name: spec.assistant_name,
        campaign_id: spec.campaign_id,
        campaign_name: spec.campaign_name,
        lead_id: spec.lead_id,
        secondary_contact_id: spec.secondary_contact_id,
        type: spec.type,
        assistant_phone_number: spec.assistant_phone_number,
        client_phone_number: spec.client_phone_number,
        variables: spec.variables,
        record: spec.record,
        max_duration_seconds: spec.max_duration_seconds,
        outcome_fields: spec.outcome_fields,
        provider: spec.provider ?? null,
        provider_call_id: spec.provider_call_id ?? null,
        failure_reason: null,
        status: 'initiated',
        duration: 0,
        transcript: null,
        evaluation: null,
        webhook_response: null,
        carrier_cost: 0,
        total_cost: 0,
        answered_by: 'unknown',
        recording_url: null,
        deadline_at: spec.type === 'outbound' ? null : deadlineFrom(Date.parse(recorded.occurredAt), spec),
        resend_from: spec.type === 'outbound' ? Date.parse(recorded.occurredAt) : null,
        dialed_at: null,
        not_dialed: null,
        analysis_due_at: null,
        created_at: at,
        updated_at: at,
      };
      await this.calls.upsert(doc.id, doc, recorded.position);
      await this.report.move(null, doc, recorded.position);
      return;
    }
    if (recorded.type === 'WebhookAttemptFinished') return this.recordWebhookResponse(recorded, recorded as unknown as WebhookAnswered);
    if (event.type === 'CallDialSent' || event.type === 'CallDialResent' || event.type === 'CallDialStarted') {
      const current = await this.calls.get(event.data.call_id);
      if (!current || isTerminal(current.status)) return;
      const at = Date.parse(recorded.occurredAt);
      const next: CallDocument =
        event.type === 'CallDialSent'
          ? {
              ...current,
              resend_from: null,
              deadline_at: deadlineFrom(sentAt(current), current),
              provider_call_id: event.data.provider_call_id ?? current.provider_call_id ?? null,
            }
          : { ...current, resend_from: at, dialed_at: at, deadline_at: null };
      await this.calls.upsert(current.id, next, recorded.position);
      return;
    }
    if (event.type === 'CallAnalyzed') {
      const current = await this.calls.get(event.data.call_id);
      if (!current) return;
      const { variables, evaluation, transcript } = event.data;
      const next = {
        ...current,
        variables: variables ? { ...current.variables, ...variables } : current.variables,
        evaluation: evaluation ?? current.evaluation,
        transcript: transcript ?? current.transcript,
      };
      await this.calls.upsert(current.id, next, recorded.position);
      await this.report.move(current, next, recorded.position);
      return;
    }
    if (event.type === 'CallRecordingSaved') {
      const current = await this.calls.get(event.data.call_id);
      if (current) await this.calls.upsert(current.id, { ...current, recording_url: event.data.recording_url }, recorded.position);
      return;
    }
    if (event.type !== 'CallOutcomeRecorded') return;
    const current = await this.calls.get(event.data.call_id);
    if (!current) return;
    const { variables, ...details } = event.data.details;
    const next: CallDocument = {
      ...current,
      ...details,
      variables: variables ? { ...current.variables, ...variables } : current.variables,
      status: event.data.status,
      deadline_at: isTerminal(event.data.status) ? null : (current.deadline_at ?? deadlineFrom(sentAt(current), current)),
      resend_from: null,
      not_dialed: event.data.not_dialed ?? current.not_dialed ?? null,
      analysis_due_at: event.data.analysis_follows ? Date.parse(recorded.occurredAt) + ANALYSIS_WAIT_SECONDS * 1000 : (current.analysis_due_at ?? null),
      failure_reason: event.data.status === 'failed' ? (event.data.reason ?? current.failure_reason ?? null) : (current.failure_reason ?? null),
      updated_at: at,
    };
    await this.calls.upsert(current.id, next, recorded.position);
    await this.report.move(current, next, recorded.position);
  }

  /** docs/privacy.md: an erased person's calls. */
  private async erase(ids: number[], position: number): Promise<void> {
    for (const call of await this.calls.getMany(ids)) await this.calls.upsert(call.id, erasedCall(call), position);
  }

  /** docs/privacy.md: the calls made from `from` until `until` keep nothing of the kind fallen due. */
  private async expire({ user_id, kind, from, until }: RetainedValuesErased['data'], position: number): Promise<void> {
    const calls = await this.calls.find({ user_id, created_at: { gte: sqlDateTime(from), lt: sqlDateTime(until) } });
    for (const call of calls) await this.calls.upsert(call.id, expiredCall(call, kind), position);
  }

  /** docs/api.md: the last answer of the post-call webhook, stored on the call. */
  private async recordWebhookResponse(recorded: RecordedEvent, { data }: WebhookAnswered): Promise<void> {
    if (data.event !== 'call.ended' || data.call_id === null) return;
    const current = await this.calls.get(data.call_id);
    if (!current) return;
    const webhook_response = {
      status_code: data.status_code,
      body: data.body,
      ...(data.error ? { error: data.error } : {}),
      attempts: data.attempt,
      delivered_at: data.outcome === 'delivered' ? sqlDateTime(recorded.occurredAt) : null,
    };
    await this.calls.upsert(current.id, { ...current, webhook_response }, recorded.position);
  }
}

/** When a call's dial was last sent: its latest send, else (a store older than sends) its creation. */
function sentAt(call: CallDocument): number {
  return call.dialed_at ?? Date.parse(`${call.created_at.replace(' ', 'T')}Z`);
}

/** docs/dialing.md: an open call is failed `max_call_duration` + 120 s after its latest dial send. */
function deadlineFrom(sentAtMs: number, spec: Pick<CallSpec, 'max_duration_seconds'>): number {
  return sentAtMs + (spec.max_duration_seconds + STUCK_CALL_GRACE_SECONDS) * 1000;
}

/**
 * A call as the API shows it: docs/api.md plus the ids of docs/api.md. A field a call
 * does not show is left undefined (JSON leaves it out): one literal of one shape, built once
 * per call written, costs far less than spreads of optional parts.
 */
export function callView(doc: CallDocument) {
  return {
    id: doc.id,
    assistant_id: doc.assistant_id,
    assistant_name: doc.assistant_name,
    campaign_id: doc.campaign_id,
    campaign_name: doc.campaign_id !== null ? doc.campaign_name : undefined,
    lead_id: doc.lead_id,
    secondary_contact_id: doc.secondary_contact_id,
    type: doc.type,
    duration: doc.duration,
    assistant_phone_number: doc.assistant_phone_number,
    client_phone_number: doc.client_phone_number,
    status: doc.status,
    transcript: doc.transcript,
    variables: doc.variables,
    evaluation: doc.evaluation,
    webhook_response: doc.webhook_response,
    carrier_cost: doc.carrier_cost,
    total_cost: doc.total_cost,
    answered_by: doc.answered_by,
    provider: doc.provider ?? null,
    provider_call_id: doc.provider_call_id ?? null,
    failure_reason: doc.failure_reason ?? null,
    recording_url: doc.recording_url && doc.record ? doc.recording_url : undefined,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}
