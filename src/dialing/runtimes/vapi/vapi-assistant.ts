import { runtimeLanguage, voiceById } from '../../../catalog/catalog';
import { AssistantRecord, parametersOf } from '../assistant-record';

/** Where Vapi sends the call's messages, and the secret it sends with them. */
export interface VapiServer {
  url: string;
  headers: { 'X-Vapi-Secret': string };
}

/** Contract §18.1: the transient assistant of one call, its id in `metadata`. */
export function vapiAssistant(assistant: AssistantRecord, callId: number, server: VapiServer) {
  const tools: object[] = assistant.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: parametersOf(tool.schema) },
    server,
  }));
  if (assistant.end_call_tool.description) tools.push({ type: 'endCall' });
  const structured = assistant.post_call_schema.length ? { structuredDataPlan: { enabled: true, schema: parametersOf(assistant.post_call_schema) } } : {};
  const evaluation = assistant.post_call_evaluation ? { successEvaluationPlan: { enabled: true } } : {};
  // A voice the runtime has no id for: the runtime's default.
  const voice = voiceById(assistant.voice_id)?.runtime_voices?.vapi;
  return {
    name: assistant.name,
    firstMessage: assistant.initial_message,
    model: {
      provider: 'openai',
      model: assistant.llm_model,
      temperature: Number(assistant.llm_temperature),
      messages: [{ role: 'system', content: assistant.system_prompt }],
      tools,
    },
    ...(voice ? { voice } : {}),
    transcriber: { provider: 'deepgram', language: runtimeLanguage(assistant.language) },
    maxDurationSeconds: assistant.max_duration,
    ...(assistant.end_call_on_voicemail ? { voicemailDetection: { provider: 'vapi' } } : {}),
    artifactPlan: { recordingEnabled: assistant.record },
    ...(structured.structuredDataPlan || evaluation.successEvaluationPlan ? { analysisPlan: { ...structured, ...evaluation } } : {}),
    metadata: { call_id: callId },
    server,
  };
}
