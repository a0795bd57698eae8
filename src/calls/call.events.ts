import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

export const callStream = (id: number) => `call-${id}`;

export type CallStatus =
  'initiated' | 'ringing' | 'busy' | 'in-progress' | 'ended' | 'completed' | 'ended_by_customer' | 'ended_by_assistant' | 'no-answer' | 'failed';
export const CALL_STATUSES: readonly CallStatus[] = [
  'initiated',
  'ringing',
  'busy',
  'in-progress',
  'ended',
  'completed',
  'ended_by_customer',
  'ended_by_assistant',
  'no-answer',
  'failed',
];
export type CallType = 'inbound' | 'outbound' | 'web';
export const CALL_TYPES: readonly CallType[] = ['inbound', 'outbound', 'web'];
/** Who placed the call (docs/real-calls.md). */
export type CallProvider = 'simulated' | 'http' | 'vapi' | 'retell' | 'twilio';
export type AnsweredBy = 'human' | 'machine' | 'unknown';
export const ANSWERED_BY: readonly AnsweredBy[] = ['human', 'machine', 'unknown'];

/** What the voice runtime reports about a call; each field is optional on every event. */
export interface CallDetails {
  answered_by?: AnsweredBy;
  duration?: number;
  transcript?: string;
  recording_url?: string;
  carrier_cost?: number;
  total_cost?: number;
  variables?: Record<string, unknown>;
  evaluation?: Record<string, unknown>;
  /** docs/dialing.md: the called party asked not to be called again. */
  opt_out?: boolean;
}

export interface CallSpec {
  user_id: number;
  assistant_id: number;
  assistant_name: string;
  campaign_id: number | null;
  campaign_name: string | null;
  lead_id: number | null;
  secondary_contact_id: number | null;
  type: CallType;
  assistant_phone_number: string | null;
  client_phone_number: string;
  /** The lead's (and contact's) variables handed to the voice runtime. */
  variables: Record<string, unknown>;
  /** Whether the assistant records calls: a recording URL is shown only then. */
  record: boolean;
  /** The assistant's max_call_duration: a call still open 120 s past it is failed. */
  max_duration_seconds: number;
  /** Who places (or, inbound, took) the call; absent in calls older than the field. */
  provider?: CallProvider | null;
  /** The runtime's own id of an inbound call it announced. */
  provider_call_id?: string | null;
  /** docs/reports.md: the assistant's post-call fields of type string or bool, whose values the campaign report counts; absent in older calls. */
  outcome_fields?: string[];
}

export type CallInitiated = DomainEvent<'CallInitiated', { call_id: number } & CallSpec>;
/**
 * v2 added `reached` (docs/api.md), decided once with the `answered_by` of earlier events
 * too; v1 events are lifted by calls/call.upcasters.ts.
 */
/**
 * Why a claimed call was never dialed (docs/dialing.md): checked again just before the dial
 * leaves, its number had joined the do-not-call list, the lead's window had closed (calling
 * hours, quiet hours, a holiday), the campaign was no longer running, or the lead no longer
 * waited for this call (deleted, closed, or another call current); or the voice runtime refused it
 * for its capacity (docs/real-calls.md: no attempt used, the lead due again at `retry_at`).
 */
export type NotDialedReason = 'do-not-call' | 'outside-window' | 'campaign-not-running' | 'lead-not-live' | 'runtime-at-capacity';
export type CallOutcomeRecorded = DomainEvent<
  'CallOutcomeRecorded',
  {
    call_id: number;
    user_id: number;
    campaign_id: number | null;
    lead_id: number | null;
    from: CallStatus;
    status: CallStatus;
    reached: boolean;
    details: CallDetails;
    reason?: string;
    /** Set when the call was never dialed: its number joined the do-not-call list after the claim (docs/dialing.md). */
    not_dialed?: NotDialedReason;
    /** With `runtime-at-capacity`: when the lead may be dialed again. */
    retry_at?: string;
    /** The runtime analyses the call after its end (Retell's `call_analyzed`): its post-call webhook waits for that (docs/api.md, docs/real-calls.md). */
    analysis_follows?: boolean;
  }
>;
/** The voice runtime ran one of the assistant's mid-call tools during the call. */
export type CallToolInvoked = DomainEvent<
  'CallToolInvoked',
  {
    call_id: number;
    user_id: number;
    campaign_id: number | null;
    lead_id: number | null;
    tool_id: number;
    tool_name: string;
    arguments: Record<string, unknown>;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
  }
>;
type CallIds = { call_id: number; user_id: number; campaign_id: number | null; lead_id: number | null };
/** The dialer accepted the request to place the call: it is with the provider now, under the provider's own id when it has one. */
export type CallDialSent = DomainEvent<'CallDialSent', CallIds & { provider_call_id?: string | null }>;
/**
 * Written by stores before CallDialStarted: a dial never confirmed was claimed to be sent
 * again (the first send had left no event). Read, no longer written.
 */
export type CallDialResent = DomainEvent<'CallDialResent', CallIds & { resends: number }>;
/**
 * The service is sending the call's dial now (the `sends`-th time): claimed by an append with
 * the expected revision, so one sender at a time. The call's deadline counts from the latest
 * one (docs/dialing.md); one unconfirmed after DIAL_RESEND_AFTER_SECONDS is sent again under the
 * same id (docs/api.md).
 */
export type CallDialStarted = DomainEvent<'CallDialStarted', CallIds & { sends: number; at: string }>;
/**
 * The runtime's analysis after the call (docs/real-calls.md): extracted fields for `variables`, and the
 * verdict. No status change. `awaited`: the call's end waited for it (its webhook leaves now).
 */
export type CallAnalyzed = DomainEvent<'CallAnalyzed', CallIds & CallAnalysis & { awaited?: boolean }>;
/** What is learnt of a call once its conversation is over: its transcript (the service's own conversations), extracted fields, the verdict. */
export type CallAnalysis = Pick<CallDetails, 'variables' | 'evaluation' | 'transcript'>;
/** The assistant ended the conversation (its end_call tool): however the carrier reports the end, it is the assistant's (docs/real-calls.md). */
export type CallHungUpByAssistant = DomainEvent<'CallHungUpByAssistant', CallIds>;
/** The call's recording is stored at the runtime (it comes after the call's end, docs/real-calls.md). */
export type CallRecordingSaved = DomainEvent<'CallRecordingSaved', CallIds & { recording_url: string }>;
/** An analysis awaited since the call's end never came within ANALYSIS_WAIT_SECONDS: the call's webhook leaves without it. */
export type CallAnalysisTimedOut = DomainEvent<'CallAnalysisTimedOut', CallIds>;
export type CallEvent =
  | CallInitiated
  | CallOutcomeRecorded
  | CallToolInvoked
  | CallDialSent
  | CallDialResent
  | CallDialStarted
  | CallAnalyzed
  | CallAnalysisTimedOut
  | CallHungUpByAssistant
  | CallRecordingSaved;

/** What most call events name: the call, its organisation, its campaign and lead. */
const IDS = { call_id: 'plain', user_id: 'plain', campaign_id: 'plain', lead_id: 'plain' } as const;

export const CALL_EVENT_TYPES = declareFields<CallEvent>({
  CallInitiated: {
    call_id: 'plain',
    user_id: 'plain',
    assistant_id: 'plain',
    assistant_name: 'plain',
    campaign_id: 'plain',
    campaign_name: 'plain',
    lead_id: 'plain',
    secondary_contact_id: 'plain',
    type: 'plain',
    assistant_phone_number: 'plain',
    client_phone_number: 'subject',
    variables: 'retained:variables',
    record: 'plain',
    max_duration_seconds: 'plain',
    provider: 'plain',
    provider_call_id: 'plain',
    outcome_fields: 'plain',
  },
  CallOutcomeRecorded: {
    ...IDS,
    from: 'plain',
    status: 'plain',
    reached: 'plain',
    details: { transcript: 'retained:transcripts', recording_url: 'retained:recordings', variables: 'retained:variables', evaluation: 'personal' },
    reason: 'plain',
    not_dialed: 'plain',
    retry_at: 'plain',
    analysis_follows: 'plain',
  },
  CallToolInvoked: { ...IDS, tool_id: 'plain', tool_name: 'plain', arguments: 'personal', status_code: 'plain', duration_ms: 'plain', error: 'plain' },
  CallDialSent: { ...IDS, provider_call_id: 'plain' },
  CallDialResent: { ...IDS, resends: 'plain' },
  CallDialStarted: { ...IDS, sends: 'plain', at: 'plain' },
  CallAnalyzed: { ...IDS, variables: 'retained:variables', evaluation: 'personal', transcript: 'retained:transcripts', awaited: 'plain' },
  CallAnalysisTimedOut: { ...IDS },
  CallHungUpByAssistant: { ...IDS },
  CallRecordingSaved: { ...IDS, recording_url: 'retained:recordings' },
});
