import { runtimeLanguage, voiceById } from '../../../catalog/catalog';
import { AssistantRecord, parametersOf } from '../assistant-record';

/** Retell's own voice when the catalog voice names none for it. */
export const RETELL_DEFAULT_VOICE = '11labs-Adrian';

const analysisType = (type: string) => (type === 'bool' ? 'boolean' : type);

/** Contract §18.2: the Retell LLM an assistant is published as, its tools calling back this service. */
export function retellLlm(assistant: AssistantRecord, publicUrl: string) {
  const tools: object[] = assistant.tools.map((tool) => ({
    type: 'custom',
    name: tool.name,
    description: tool.description,
    url: `${publicUrl}/api/telephony/retell/tools/${encodeURIComponent(tool.name)}`,
    method: 'POST',
    parameters: parametersOf(tool.schema),
    speak_after_execution: true,
  }));
  if (assistant.end_call_tool.description) tools.push({ type: 'end_call', name: 'end_call', description: assistant.end_call_tool.description });
  return {
    general_prompt: assistant.system_prompt,
    begin_message: assistant.initial_message,
    model: assistant.llm_model,
    model_temperature: Number(assistant.llm_temperature),
    general_tools: tools,
  };
}

/**
 * The agent's name at Retell: the assistant's, with its id, so that an agent made by a publication
 * whose process died before recording it is found again by name rather than made twice.
 */
export const retellAgentName = (assistant: AssistantRecord, assistantId: number) => `${assistant.name} (assistant ${assistantId})`;

/** Contract §18.2: the Retell agent that speaks with that LLM. */
export function retellAgent(assistant: AssistantRecord, assistantId: number, llmId: string, publicUrl: string) {
  return {
    response_engine: { type: 'retell-llm', llm_id: llmId },
    agent_name: retellAgentName(assistant, assistantId),
    voice_id: voiceById(assistant.voice_id)?.runtime_voices?.retell ?? RETELL_DEFAULT_VOICE,
    language: runtimeLanguage(assistant.language),
    webhook_url: `${publicUrl}/api/telephony/retell/events`,
    max_call_duration_ms: assistant.max_duration * 1000,
    enable_voicemail_detection: Boolean(assistant.end_call_on_voicemail),
    post_call_analysis_data: assistant.post_call_schema.map((f) => ({ type: analysisType(f.type), name: f.name, description: f.description })),
  };
}
