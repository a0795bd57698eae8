import { RetainedKind } from '../shared/event-sourcing/event-fields';
import { withNumbersMasked } from '../shared/phone';
import { ERASED } from '../shared/sealing/personal-fields';
import { erasedValues } from '../shared/sealing/subject-erased.event';

/** What a call keeps about the person called. */
interface CallValues {
  client_phone_number: string;
  variables: Record<string, unknown>;
  transcript: string | null;
  recording_url: string | null;
  evaluation: Record<string, unknown> | null;
  webhook_response: Record<string, unknown> | null;
  failure_reason: string | null;
}

const erased = (value: unknown) => (value === null ? null : erasedValues(value));

/**
 * docs/privacy.md: an erased person's number and what their call heard and kept read `[erased]`;
 * status, times and costs stay, and its `failure_reason` with any number masked (a runtime's
 * refusal recorded before its numbers were masked may name the number called).
 */
export const erasedCall = <Call extends CallValues>(call: Call): Call => ({
  ...call,
  client_phone_number: ERASED,
  variables: erasedValues(call.variables) as Call['variables'],
  transcript: erased(call.transcript) as string | null,
  recording_url: erased(call.recording_url) as string | null,
  evaluation: erased(call.evaluation) as Call['evaluation'],
  webhook_response: erased(call.webhook_response) as Call['webhook_response'],
  failure_reason: call.failure_reason && withNumbersMasked(call.failure_reason),
});

/** docs/privacy.md: a call's values of a kind fallen due under its organisation's retention. */
export function expiredCall<Call extends CallValues>(call: Call, kind: RetainedKind): Call {
  if (kind === 'transcripts') return { ...call, transcript: erased(call.transcript) as string | null };
  if (kind === 'recordings') return { ...call, recording_url: erased(call.recording_url) as string | null };
  return { ...call, variables: erasedValues(call.variables) as Call['variables'] };
}
