import { CallDetails, CallStatus } from '../../calls/call.events';
import { PostCallField, analysisValues } from '../post-call-analysis';
import { RuntimeReport } from '../runtime-report';

/** docs/real-calls.md: `status-update` statuses that move a call; any other changes nothing. */
export function vapiStatusUpdate(status: unknown): CallStatus | null {
  return status === 'ringing' ? 'ringing' : status === 'in-progress' ? 'in-progress' : null;
}

const ENDED_BY_ASSISTANT = new Set([
  'assistant-ended-call',
  'assistant-said-end-call-phrase',
  'assistant-ended-call-with-hangup-task',
  'assistant-ended-call-after-message-spoken',
  'assistant-forwarded-call',
]);
const ENDED = new Set(['voicemail', 'exceeded-max-duration', 'silence-timed-out', 'manually-canceled']);

/** docs/real-calls.md's table: the status an `endedReason` ends a call with, given whether it was in progress. */
export function vapiEndedStatus(reason: string, wasInProgress: boolean): { status: CallStatus; atCapacity: boolean } {
  const is = (status: CallStatus) => ({ status, atCapacity: false });
  if (reason.startsWith('customer-ended-call')) return is('ended_by_customer');
  if (ENDED_BY_ASSISTANT.has(reason)) return is('ended_by_assistant');
  if (ENDED.has(reason)) return is('ended');
  if (reason === 'customer-busy' || reason.endsWith('operator-busy')) return is('busy');
  if (reason === 'customer-did-not-answer') return is('no-answer');
  if (reason.endsWith('completed-call')) return is('completed');
  if (reason.includes('concurrency')) return { status: 'failed', atCapacity: true };
  return is(wasInProgress ? 'ended' : 'failed');
}

interface EndOfCallReport {
  endedReason?: unknown;
  startedAt?: unknown;
  endedAt?: unknown;
  cost?: unknown;
  artifact?: { transcript?: unknown; recordingUrl?: unknown; recording?: { mono?: { combinedUrl?: unknown } } };
  analysis?: { structuredData?: unknown; successEvaluation?: unknown; summary?: unknown };
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Whole seconds between two ISO instants; 0 without both. */
function seconds(from: unknown, to: unknown): number {
  const [a, b] = [Date.parse(text(from) ?? ''), Date.parse(text(to) ?? '')];
  return Number.isNaN(a) || Number.isNaN(b) ? 0 : Math.max(0, Math.round((b - a) / 1000));
}

/**
 * Vapi's `analysis.successEvaluation` is a string (@vapi-ai/server-sdk 2.x, `Vapi.Analysis`): its
 * default rubric answers `"true"` or `"false"`; any other verdict (a score, a grade) is no boolean.
 */
function verdict(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const said = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return said === 'true' ? true : said === 'false' ? false : null;
}

/** docs/real-calls.md: what an `end-of-call-report` tells of a call, held to the assistant's post-call fields. */
export function vapiEndOfCallReport(message: EndOfCallReport, wasInProgress: boolean, fields: readonly PostCallField[]): RuntimeReport {
  const reason = text(message.endedReason) ?? 'unknown';
  const { status, atCapacity } = vapiEndedStatus(reason, wasInProgress);
  const details: CallDetails = {
    duration: seconds(message.startedAt, message.endedAt),
    answered_by: reason === 'voicemail' ? 'machine' : wasInProgress ? 'human' : 'unknown',
  };
  const transcript = text(message.artifact?.transcript);
  // `artifact.recording.mono.combinedUrl`; `artifact.recordingUrl` is deprecated (Vapi's OpenAPI document, Artifact).
  const recording = text(message.artifact?.recording?.mono?.combinedUrl) ?? text(message.artifact?.recordingUrl);
  if (transcript !== undefined) details.transcript = transcript;
  if (recording !== undefined) details.recording_url = recording;
  if (typeof message.cost === 'number' && Number.isFinite(message.cost)) details.total_cost = message.cost;
  const variables = analysisValues(message.analysis?.structuredData, fields);
  if (Object.keys(variables).length) details.variables = variables;
  const analysis = message.analysis;
  if (analysis && (analysis.successEvaluation !== undefined || analysis.summary !== undefined)) {
    details.evaluation = { success: verdict(analysis.successEvaluation), summary: text(analysis.summary) ?? null };
  }
  return { status, details, ...(status === 'failed' ? { reason: `vapi: ${reason}` } : {}), ...(atCapacity ? { atCapacity } : {}) };
}
