import { AnsweredBy, CallDetails } from '../../calls/call.events';
import { RuntimeReport } from '../runtime-report';

/** A Twilio callback's form fields (docs/real-calls.md). */
export type TwilioParams = Record<string, string | undefined>;

/** `AnsweredBy`: `human`; `machine_*` and `fax` are machines; anything else (`unknown`) says nothing. */
export function twilioAnsweredBy(value: string | undefined): AnsweredBy | undefined {
  if (value === 'human') return 'human';
  if (value === 'fax' || value?.startsWith('machine')) return 'machine';
  return undefined;
}

const FAILED = new Set(['busy', 'no-answer', 'failed', 'canceled']);

/**
 * docs/real-calls.md's table: what a status callback changes on a call, given what the call knows of
 * who answered. A `completed` call the relay ended is the assistant's: the call decider knows that.
 * `queued`, `initiated` and anything unknown change nothing (null).
 */
export function twilioStatusReport(params: TwilioParams, knownAnsweredBy: AnsweredBy | null): RuntimeReport | null {
  const status = params.CallStatus;
  const answeredBy = twilioAnsweredBy(params.AnsweredBy);
  if (status === 'ringing') return { status: 'ringing', details: {} };
  if (status === 'in-progress') return { status: 'in-progress', details: { answered_by: answeredBy ?? 'human' } };
  if (status === 'completed') {
    const answered = answeredBy ?? (knownAnsweredBy && knownAnsweredBy !== 'unknown' ? knownAnsweredBy : 'human');
    const details: CallDetails = { duration: seconds(params.CallDuration), answered_by: answered };
    if (params.RecordingUrl) details.recording_url = params.RecordingUrl;
    return { status: answered === 'machine' ? 'ended' : 'ended_by_customer', details };
  }
  if (status && FAILED.has(status)) {
    if (status === 'busy' || status === 'no-answer') return { status, details: {} };
    const code = params.ErrorCode ? ` (error ${params.ErrorCode}${params.ErrorMessage ? `: ${params.ErrorMessage}` : ''})` : '';
    return { status: 'failed', details: {}, reason: `twilio: ${status}${code}` };
  }
  return null;
}

function seconds(raw: string | undefined): number {
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}
