import { CallDetails, CallStatus } from '../../calls/call.events';
import { PostCallField, analysisValues } from '../post-call-analysis';
import { RuntimeReport } from '../runtime-report';

const TABLE: Record<string, CallStatus> = {
  user_hangup: 'ended_by_customer',
  agent_hangup: 'ended_by_assistant',
  call_transfer: 'ended_by_assistant',
  transfer_bridged: 'ended_by_assistant',
  voicemail_reached: 'ended',
  ivr_reached: 'ended',
  inactivity: 'ended',
  max_duration_reached: 'ended',
  manual_stopped: 'ended',
  call_take_over: 'ended',
  transfer_cancelled: 'ended',
  dial_busy: 'busy',
  user_declined: 'busy',
  dial_no_answer: 'no-answer',
};
const AT_CAPACITY = new Set(['concurrency_limit_reached', 'no_concurrency_fallback']);

/** docs/real-calls.md's table: the status a `disconnection_reason` ends a call with; any other: `failed`. */
export function retellEndedStatus(reason: string): { status: CallStatus; atCapacity: boolean } {
  if (AT_CAPACITY.has(reason)) return { status: 'failed', atCapacity: true };
  return { status: TABLE[reason] ?? 'failed', atCapacity: false };
}

export interface RetellCall {
  call_id?: unknown;
  metadata?: { call_id?: unknown };
  disconnection_reason?: unknown;
  duration_ms?: unknown;
  transcript?: unknown;
  recording_url?: unknown;
  call_cost?: { combined_cost?: unknown };
  call_analysis?: { custom_analysis_data?: unknown; call_successful?: unknown; call_summary?: unknown };
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const finite = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** docs/real-calls.md: what a `call_ended` event tells of a call. */
export function retellCallEnded(call: RetellCall, wasStarted: boolean): RuntimeReport {
  const reason = text(call.disconnection_reason) ?? 'unknown';
  const { status, atCapacity } = retellEndedStatus(reason);
  const machine = reason === 'voicemail_reached' || reason === 'ivr_reached';
  const details: CallDetails = {
    duration: Math.round((finite(call.duration_ms) ?? 0) / 1000),
    answered_by: machine ? 'machine' : wasStarted ? 'human' : 'unknown',
  };
  const transcript = text(call.transcript);
  const recording = text(call.recording_url);
  const cost = finite(call.call_cost?.combined_cost);
  if (transcript !== undefined) details.transcript = transcript;
  if (recording !== undefined) details.recording_url = recording;
  if (cost !== undefined) details.total_cost = cost / 100;
  return { status, details, ...(status === 'failed' ? { reason: `retell: ${reason}` } : {}), ...(atCapacity ? { atCapacity } : {}) };
}

/** docs/real-calls.md: what a `call_analyzed` event adds (no status change): the extracted fields of the right type, and the verdict. */
export function retellCallAnalysis(call: RetellCall, fields: readonly PostCallField[]): Pick<CallDetails, 'variables' | 'evaluation'> {
  const analysis = call.call_analysis;
  if (!analysis) return {};
  const variables = analysisValues(analysis.custom_analysis_data, fields);
  const evaluation =
    analysis.call_successful !== undefined || analysis.call_summary !== undefined
      ? { evaluation: { success: analysis.call_successful ?? null, summary: text(analysis.call_summary) ?? null } }
      : {};
  return { ...(Object.keys(variables).length ? { variables } : {}), ...evaluation };
}
