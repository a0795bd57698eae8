import type { Vapi } from '@vapi-ai/server-sdk';
import { languageByName, voiceById } from '../../catalog/catalog';
import { AssistantRecord, parametersOf } from '../assistant-record';
import { vapiModelProvider } from './vapi-models';

/** Vapi's limit on an assistant's `name` (Vapi's OpenAPI document, CreateAssistantDTO.name: maxLength 40). */
export const VAPI_NAME_MAX = 40;

/**
 * The catalog's languages as Vapi's Deepgram transcriber lists them (@vapi-ai/server-sdk 2.x,
 * `Vapi.DeepgramTranscriberLanguage`: `en-US`, `es`, `fr`, `de`, `hi`, `it`, `nl`, `pt-BR`);
 * an unknown name: `en-US`.
 */
const DEEPGRAM_LANGUAGES: Record<string, Vapi.DeepgramTranscriberLanguage> = {
  en: 'en-US',
  es: 'es',
  fr: 'fr',
  de: 'de',
  hi: 'hi',
  it: 'it',
  nl: 'nl',
  pt: 'pt-BR',
};
export const vapiLanguage = (name: string): Vapi.DeepgramTranscriberLanguage => DEEPGRAM_LANGUAGES[languageByName(name)?.code ?? ''] ?? 'en-US';

/**
 * How long Vapi waits for this service's answer to a message (Vapi's `Server.timeoutSeconds`,
 * default 20, 1 to 300): long enough for the slowest of the assistant's tools, whose run answers
 * a `tool-calls` message.
 */
const timeoutSeconds = (assistant: AssistantRecord) => Math.min(300, Math.max(20, ...assistant.tools.map((tool) => tool.timeout + 5)));

/** Where Vapi sends the call's messages, and the secret it sends with them (Vapi's `Server`). */
export interface VapiServer {
  url: string;
  headers: { 'X-Vapi-Secret': string };
}

/**
 * docs/real-calls.md: the transient assistant of one call, its id in `metadata`, as Vapi's
 * `CreateAssistantDto` (@vapi-ai/server-sdk 2.x) has it. `{{name}}` placeholders are Vapi's own
 * template variables, filled from `assistantOverrides.variableValues`.
 */
export function vapiAssistant(assistant: AssistantRecord, callId: number, server: VapiServer): Vapi.CreateAssistantDto {
  const withTimeout: Vapi.Server = { ...server, timeoutSeconds: timeoutSeconds(assistant) };
  const tools: Vapi.OpenAiModelToolsItem[] = assistant.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: parametersOf(tool.schema) as Vapi.OpenAiFunctionParameters },
    server: withTimeout,
  }));
  if (assistant.end_call_tool.description) tools.push({ type: 'endCall' });
  // Deprecated by Vapi for structured outputs, still accepted: the plan docs/real-calls.md names.
  const analysisPlan: Vapi.AnalysisPlan = {
    ...(assistant.post_call_schema.length
      ? { structuredDataPlan: { enabled: true, schema: parametersOf(assistant.post_call_schema) as Vapi.JsonSchema } }
      : {}),
    ...(assistant.post_call_evaluation ? { successEvaluationPlan: { enabled: true } } : {}),
  };
  // A voice the runtime has no id for: the runtime's default.
  const voice = voiceById(assistant.voice_id)?.runtime_voices?.vapi as Vapi.CreateAssistantDtoVoice | undefined;
  const provider = vapiModelProvider(assistant.llm_model) ?? 'openai';
  return {
    name: assistant.name.slice(0, VAPI_NAME_MAX),
    ...(assistant.wait_for_customer
      ? { firstMessageMode: 'assistant-waits-for-user' as const }
      : { firstMessage: assistant.initial_message, firstMessageMode: 'assistant-speaks-first' as const }),
    model: {
      provider,
      model: assistant.llm_model,
      temperature: Number(assistant.llm_temperature),
      messages: [{ role: 'system', content: assistant.system_prompt }],
      tools,
    } as Vapi.CreateAssistantDtoModel,
    ...(voice ? { voice } : {}),
    transcriber: { provider: 'deepgram', language: vapiLanguage(assistant.language) },
    maxDurationSeconds: assistant.max_duration,
    ...(assistant.end_call_on_voicemail ? { voicemailDetection: { provider: 'vapi' } as Vapi.CreateAssistantDtoVoicemailDetection } : {}),
    artifactPlan: { recordingEnabled: assistant.record },
    ...(Object.keys(analysisPlan).length ? { analysisPlan } : {}),
    metadata: { call_id: callId },
    server: withTimeout,
  };
}
