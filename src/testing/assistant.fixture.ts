import { assistantRecord } from '../assistants/assistant-record';
import { RenderedAssistant } from '../assistants/assistant-view';
import { ASSISTANT_DEFAULTS, AssistantSettings, RequiredSettings } from '../assistants/assistant.settings';

/** The required fields of a valid assistant, shared by the specs and the end-to-end suites. */
export const requiredAssistantSettings: RequiredSettings = {
  assistant_name: 'Ada',
  voice_id: 1,
  language: 'English',
  llm_model: 'gpt-4o',
  calls_direction: 'make',
  engine_type: 'pipeline',
  timezone: 'America/New_York',
  initial_message: 'Hello!',
  system_prompt: 'You are helpful.',
};

/** An assistant as the API renders it (the record with its tools), for specs of what runtimes make of one. */
export function renderedAssistant(overrides: Partial<AssistantSettings> = {}, tools: RenderedAssistant['tools'] = []): RenderedAssistant {
  const identity = { id: 1, user_id: 1, uuid: '00000000-0000-4000-8000-000000000001', created_at: '', updated_at: '', deleted_at: null };
  return { ...assistantRecord(identity, { ...ASSISTANT_DEFAULTS, ...requiredAssistantSettings, ...overrides }), tools };
}

/** A tool as an assistant renders it. */
export const renderedTool = (
  tool: Partial<RenderedAssistant['tools'][number]> & Pick<RenderedAssistant['tools'][number], 'name'>,
): RenderedAssistant['tools'][number] => ({
  id: 1,
  description: '',
  endpoint: 'https://example.com/tool',
  method: 'POST',
  timeout: 10,
  headers: [],
  schema: [],
  created_at: '',
  updated_at: '',
  ...tool,
});
