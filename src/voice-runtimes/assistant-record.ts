/** What the assistant record (docs/api.md, with its tools) holds that a runtime's assistant is made of. */
export interface AssistantRecord {
  name: string;
  voice_id: number;
  initial_message: string;
  system_prompt: string;
  llm_model: string;
  llm_temperature: string;
  language: string;
  max_duration: number;
  record: boolean;
  end_call_on_voicemail: number;
  end_call_tool: { description: string | null };
  post_call_schema: Array<{ name: string; type: 'string' | 'number' | 'bool'; description: string }>;
  post_call_evaluation: boolean;
  /** `who_speaks_first` is `Customer`: the assistant waits for the person to speak. */
  wait_for_customer: boolean;
  tools: Array<{ name: string; description: string; timeout: number; schema: Array<{ name: string; type: string; description: string }> }>;
}

const jsonType = (type: string) => (type === 'bool' ? 'boolean' : type);

/** A tool's arguments as the JSON schema runtimes take. */
export function parametersOf(schema: AssistantRecord['tools'][number]['schema']) {
  return {
    type: 'object',
    properties: Object.fromEntries(schema.map((p) => [p.name, { type: jsonType(p.type), description: p.description }])),
  };
}
