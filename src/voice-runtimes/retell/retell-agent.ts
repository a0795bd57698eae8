import type { AgentCreateParams } from 'retell-sdk/resources/agent';
import type { LlmCreateParams } from 'retell-sdk/resources/llm';
import { languageByName, voiceById } from '../../catalog/catalog';
import { AssistantRecord, parametersOf } from '../assistant-record';
import { RetellModel } from './retell-models';

/** Retell's own voice when the catalog voice names none for it. */
export const RETELL_DEFAULT_VOICE = '11labs-Adrian';

type RetellLanguage = Extract<NonNullable<AgentCreateParams['language']>, string>;

/** The catalog's languages as Retell's agents take them (retell-sdk 5.66, `AgentCreateParams.language`); an unknown name: `en-US`. */
const LANGUAGES: Record<string, RetellLanguage> = {
  en: 'en-US',
  es: 'es-ES',
  fr: 'fr-FR',
  de: 'de-DE',
  hi: 'hi-IN',
  it: 'it-IT',
  nl: 'nl-NL',
  pt: 'pt-BR',
};
const retellLanguage = (name: string): RetellLanguage => LANGUAGES[languageByName(name)?.code ?? ''] ?? 'en-US';

const analysisType = (type: string) => (type === 'bool' ? 'boolean' : type) as 'string' | 'number' | 'boolean';

/**
 * docs/real-calls.md: the Retell LLM an assistant is published as (retell-sdk's `LlmCreateParams`),
 * its tools calling back this service. `{{name}}` in the prompt and first message are Retell's
 * dynamic variables, filled from the call's `retell_llm_dynamic_variables`. An assistant that lets
 * the customer speak first starts with the user (`start_speaker`), with no begin message.
 */
export function retellLlm(assistant: AssistantRecord, publicUrl: string): LlmCreateParams {
  const tools: NonNullable<LlmCreateParams['general_tools']> = assistant.tools.map((tool) => ({
    type: 'custom',
    name: tool.name,
    description: tool.description,
    url: `${publicUrl}/api/telephony/retell/tools/${encodeURIComponent(tool.name)}`,
    method: 'POST',
    parameters: parametersOf(tool.schema) as { type: 'object'; properties: Record<string, unknown> },
    speak_after_execution: true,
    timeout_ms: tool.timeout * 1000 + 5000,
  }));
  if (assistant.end_call_tool.description) tools.push({ type: 'end_call', name: 'end_call', description: assistant.end_call_tool.description });
  return {
    general_prompt: assistant.system_prompt,
    begin_message: assistant.wait_for_customer ? '' : assistant.initial_message,
    start_speaker: assistant.wait_for_customer ? 'user' : 'agent',
    // Refused at save when Retell does not offer it (docs/real-calls.md).
    model: assistant.llm_model as RetellModel,
    model_temperature: Number(assistant.llm_temperature),
    general_tools: tools,
  };
}

/**
 * The agent's name at Retell: the assistant's, with its id, so that an agent made by a publication
 * whose process died before recording it is found again by name rather than made twice.
 */
export const retellAgentName = (assistant: AssistantRecord, assistantId: number) => `${assistant.name} (assistant ${assistantId})`;

/**
 * docs/real-calls.md: the Retell agent that speaks with that LLM (retell-sdk's `AgentCreateParams`).
 * Voicemail is Retell's `voicemail_option` (its `enable_voicemail_detection` was removed).
 */
export function retellAgent(assistant: AssistantRecord, assistantId: number, llmId: string, publicUrl: string): AgentCreateParams {
  return {
    response_engine: { type: 'retell-llm', llm_id: llmId },
    agent_name: retellAgentName(assistant, assistantId),
    voice_id: voiceById(assistant.voice_id)?.runtime_voices?.retell ?? RETELL_DEFAULT_VOICE,
    language: retellLanguage(assistant.language),
    webhook_url: `${publicUrl}/api/telephony/retell/events`,
    max_call_duration_ms: assistant.max_duration * 1000,
    voicemail_option: assistant.end_call_on_voicemail ? { action: { type: 'hangup' } } : null,
    post_call_analysis_data: assistant.post_call_schema.map((f) => ({ type: analysisType(f.type), name: f.name, description: f.description })),
  };
}
