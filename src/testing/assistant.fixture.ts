import { RequiredSettings } from '../assistants/assistant.settings';

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
