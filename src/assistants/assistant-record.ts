import { languageByName, voiceById } from '../catalog/catalog';
import { AssistantSettings } from './assistant.settings';

export interface AssistantIdentity {
  id: number;
  user_id: number;
  uuid: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** The list record of docs/api.md: renamed fields, 1/0 flags and numbers rendered as strings where it says so. */
export function assistantRecord(identity: AssistantIdentity, s: AssistantSettings) {
  const language = languageByName(s.language);
  return {
    id: identity.id,
    user_id: identity.user_id,
    phone_number_id: s.phone_number_id,
    engine_id: null,
    synthesizer_id: null,
    transcriber_id: null,
    voice_id: s.voice_id,
    instance_id: null,
    name: s.assistant_name,
    variables: s.variables,
    post_call_evaluation: s.post_call_evaluation,
    fillers: s.filler_audios ? 1 : 0,
    post_call_schema: s.post_call_schema,
    is_webhook_active: s.is_webhook_active,
    webhook_url: s.webhook_url,
    inbound_webhook_url: s.inbound_webhook_url,
    language: s.language,
    language_id: language?.id ?? null,
    type: s.calls_direction === 'make' ? 'outbound' : 'inbound',
    status: 'active',
    max_duration: s.max_call_duration,
    record: s.record_call,
    initial_message: s.initial_message,
    system_prompt: s.system_prompt,
    flows_platform_id: null,
    timezone: s.timezone,
    created_at: identity.created_at,
    updated_at: identity.updated_at,
    deleted_at: identity.deleted_at,
    max_silence_duration: s.max_silence_duration,
    reengagement_interval: s.re_engagement_interval,
    end_call_on_voicemail: s.end_call_on_voicemail ? 1 : 0,
    llm_temperature: String(s.llm_temperature),
    voice_stability: String(s.voice_stability),
    voice_similarity: String(s.voice_similarity),
    speech_speed: String(s.speech_speed),
    ambient_sound_volume: String(s.ambient_sound_volume),
    allow_interruptions: s.allow_interruptions,
    enable_noise_cancellation: s.noise_cancellation,
    endpoint_sensitivity: s.endpoint_sensitivity,
    interrupt_sensitivity: s.interrupt_sensitivity,
    endpoint_type: s.endpoint_type,
    wait_for_customer: s.who_speaks_first === 'Customer',
    mode: s.engine_type,
    transcriber_provider_id: null,
    synthesizer_provider_id: null,
    llm_model: s.llm_model,
    llm_model_id: null,
    multimodal_model_id: null,
    ambient_sound: s.ambient_sound_volume > 0 ? 'office' : 'none',
    uuid: identity.uuid,
    send_webhook_only_on_completed: s.send_webhook_only_on_completed,
    include_recording_in_webhook: s.include_recording_in_webhook,
    filler_config: { neutral: [], negative: [], positive: [], question: [] },
    knowledgebase_id: null,
    knowledgebase_mode: 'none',
    use_min_interrupt_words: s.use_min_interrupt_words,
    min_interrupt_words: s.min_interrupt_words,
    end_call_tool: { description: s['end_call_tool.description'] },
    voice: voiceById(s.voice_id)?.name ?? null,
    widget_settings: {},
  };
}
