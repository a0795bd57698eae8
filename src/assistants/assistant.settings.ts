/** An assistant's configuration, under the request's field names (docs/api.md). */
export interface AssistantSettings {
  assistant_name: string;
  voice_id: number;
  language: string;
  llm_model: string;
  calls_direction: 'receive' | 'make';
  engine_type: 'pipeline' | 'multimodal';
  timezone: string;
  initial_message: string;
  system_prompt: string;
  phone_number_id: number | null;
  tool_ids: number[];
  endpoint_type: 'vad' | 'ai';
  endpoint_sensitivity: number;
  interrupt_sensitivity: number;
  ambient_sound_volume: number;
  post_call_evaluation: boolean;
  send_webhook_only_on_completed: boolean;
  include_recording_in_webhook: boolean;
  is_webhook_active: boolean;
  webhook_url: string | null;
  inbound_webhook_url: string | null;
  use_min_interrupt_words: boolean;
  min_interrupt_words: number;
  variables: Record<string, unknown>;
  post_call_schema: Array<{ name: string; type: 'string' | 'number' | 'bool'; description: string }>;
  'end_call_tool.description': string | null;
  llm_temperature: number;
  voice_stability: number;
  voice_similarity: number;
  speech_speed: number;
  allow_interruptions: boolean;
  filler_audios: boolean;
  re_engagement_interval: number;
  max_call_duration: number;
  max_silence_duration: number;
  end_call_on_voicemail: boolean;
  noise_cancellation: boolean;
  record_call: boolean;
  who_speaks_first: 'AI assistant' | 'Customer';
}

export type RequiredSettings = Pick<
  AssistantSettings,
  'assistant_name' | 'voice_id' | 'language' | 'llm_model' | 'calls_direction' | 'engine_type' | 'timezone' | 'initial_message' | 'system_prompt'
>;

/** Values of the optional fields left out on create (documented in README "Assistant defaults"). */
export const ASSISTANT_DEFAULTS: Omit<AssistantSettings, keyof RequiredSettings> = {
  phone_number_id: null,
  tool_ids: [],
  endpoint_type: 'vad',
  endpoint_sensitivity: 0.5,
  interrupt_sensitivity: 0.5,
  ambient_sound_volume: 0.5,
  post_call_evaluation: false,
  send_webhook_only_on_completed: false,
  include_recording_in_webhook: false,
  is_webhook_active: false,
  webhook_url: null,
  inbound_webhook_url: null,
  use_min_interrupt_words: false,
  min_interrupt_words: 2,
  variables: {},
  post_call_schema: [],
  'end_call_tool.description': null,
  llm_temperature: 0.7,
  voice_stability: 0.5,
  voice_similarity: 0.75,
  speech_speed: 1,
  allow_interruptions: true,
  filler_audios: false,
  re_engagement_interval: 30,
  max_call_duration: 600,
  max_silence_duration: 30,
  end_call_on_voicemail: true,
  noise_cancellation: true,
  record_call: true,
  who_speaks_first: 'AI assistant',
};

/** Fields an update may set to null (to unassign or remove them). */
export const NULLABLE_SETTINGS: ReadonlySet<string> = new Set(['phone_number_id', 'webhook_url', 'inbound_webhook_url', 'end_call_tool.description']);

/** docs/reports.md: the post-call fields whose values a campaign report counts (strings and booleans). */
export const outcomeFields = (settings: Pick<AssistantSettings, 'post_call_schema'>): string[] =>
  (settings.post_call_schema ?? []).filter((field) => field.type === 'string' || field.type === 'bool').map((field) => field.name);
