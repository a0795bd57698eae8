import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { CallAnalysis } from '../../../calls/call.events';
import { AssistantRecord } from '../../assistant-record';
import { analysisValues } from '../../post-call-analysis';

type Analysed = Pick<AssistantRecord, 'post_call_schema' | 'post_call_evaluation'>;

const jsonType = (type: string) => (type === 'bool' ? 'boolean' : type);

/** Whether the assistant asks for anything after the call. */
export const asksForAnalysis = (assistant: Analysed) => assistant.post_call_schema.length > 0 || assistant.post_call_evaluation;

/** docs/real-calls.md: the JSON schema of the one answer — the assistant's fields, and with post_call_evaluation `success` and `summary`. */
export function analysisSchema(assistant: Analysed): Record<string, unknown> {
  const properties: Record<string, unknown> = Object.fromEntries(
    assistant.post_call_schema.map((f) => [f.name, { type: jsonType(f.type), description: f.description }]),
  );
  if (assistant.post_call_evaluation) {
    properties.success = { type: 'boolean', description: 'Whether the call achieved what the assistant was asked to do.' };
    properties.summary = { type: 'string', description: 'A short summary of the call.' };
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

export function analysisMessages(transcript: string): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: 'Read the transcript of a phone call and answer with the JSON object the schema describes. Use only what the call says.' },
    { role: 'user', content: transcript || '(nothing was said)' },
  ];
}

/** The answer held to the schema: a value of the wrong type is dropped, not stored. */
export function analysisOf(answer: unknown, assistant: Analysed): Pick<CallAnalysis, 'variables' | 'evaluation'> {
  const analysis: Pick<CallAnalysis, 'variables' | 'evaluation'> = {};
  const variables = analysisValues(answer, assistant.post_call_schema);
  if (Object.keys(variables).length) analysis.variables = variables;
  if (assistant.post_call_evaluation && answer !== null && typeof answer === 'object') {
    const { success, summary } = answer as { success?: unknown; summary?: unknown };
    const evaluation = { ...(typeof success === 'boolean' ? { success } : {}), ...(typeof summary === 'string' ? { summary } : {}) };
    if (Object.keys(evaluation).length) analysis.evaluation = evaluation;
  }
  return analysis;
}
