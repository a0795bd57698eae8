import type { RenderedAssistant } from '../assistants/assistant-view';

/** What a runtime's assistant is made of: the fields of the assistant as rendered (docs/api.md, with its tools) it reads. */
export type AssistantRecord = Pick<
  RenderedAssistant,
  | 'name'
  | 'voice_id'
  | 'initial_message'
  | 'system_prompt'
  | 'llm_model'
  | 'llm_temperature'
  | 'language'
  | 'max_duration'
  | 'record'
  | 'end_call_on_voicemail'
  | 'end_call_tool'
  | 'post_call_schema'
  | 'post_call_evaluation'
  | 'wait_for_customer'
  | 'tools'
>;

const jsonType = (type: string) => (type === 'bool' ? 'boolean' : type);

/** A tool's arguments as the JSON schema runtimes take. */
export function parametersOf(schema: ReadonlyArray<{ name: string; type: string; description: string }>) {
  return {
    type: 'object',
    properties: Object.fromEntries(schema.map((p) => [p.name, { type: jsonType(p.type), description: p.description }])),
  };
}
