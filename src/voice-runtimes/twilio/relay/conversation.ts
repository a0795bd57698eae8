import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AssistantRecord, parametersOf } from '../../assistant-record';

export const END_CALL_TOOL = 'end_call';

/** A tool call the model asked for, its arguments as the model wrote them. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** docs/real-calls.md: the system prompt with each `{{name}}` replaced by its variable; a name with no variable stays as written. */
export function promptWithVariables(prompt: string, variables: Record<string, unknown>): string {
  return prompt.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (placeholder, name: string) => {
    if (!Object.hasOwn(variables, name)) return placeholder;
    const value = variables[name];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** The assistant's tools as the model's functions, and end_call when the assistant has its end-call tool. */
export function modelTools(assistant: Pick<AssistantRecord, 'tools' | 'end_call_tool'>): ChatCompletionFunctionTool[] {
  const tools: ChatCompletionFunctionTool[] = assistant.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: parametersOf(tool.schema) },
  }));
  const endCall = assistant.end_call_tool.description;
  if (endCall) tools.push({ type: 'function', function: { name: END_CALL_TOOL, description: endCall, parameters: { type: 'object', properties: {} } } });
  return tools;
}

/**
 * One call's conversation as the model sees it: the system prompt, the assistant's first line,
 * then the turns. The transcript is read from it. Pure: the relay does the talking.
 */
export class Conversation {
  private readonly turns: ChatCompletionMessageParam[];

  constructor(systemPrompt: string, initialMessage: string) {
    this.turns = [{ role: 'system', content: systemPrompt }];
    if (initialMessage) this.turns.push({ role: 'assistant', content: initialMessage });
  }

  get messages(): readonly ChatCompletionMessageParam[] {
    return this.turns;
  }

  said(text: string): void {
    this.turns.push({ role: 'user', content: text });
  }

  /** The assistant starts answering: its text grows as the model's deltas arrive. */
  answering(): void {
    this.turns.push({ role: 'assistant', content: '' });
  }

  answered(delta: string): void {
    const last = this.lastAssistant();
    if (last) last.content = `${String(last.content ?? '')}${delta}`;
  }

  /** The model asked for tools in the answer in hand; their results follow as tool messages. */
  askedFor(calls: readonly ModelToolCall[]): void {
    const last = this.lastAssistant();
    if (!last) return;
    last.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
    if (last.content === '') last.content = null;
  }

  toolAnswered(toolCallId: string, result: string): void {
    this.turns.push({ role: 'tool', tool_call_id: toolCallId, content: result });
  }

  /** The caller spoke over the assistant: its last answer is what was heard of it. */
  interrupted(heard: string): void {
    const last = this.lastAssistant();
    if (last && !last.tool_calls) last.content = heard;
  }

  /** `AI: …` / `User: …` lines, one per turn spoken. */
  transcript(): string {
    const lines: string[] = [];
    for (const turn of this.turns) {
      const text = typeof turn.content === 'string' ? turn.content.trim() : '';
      if (!text) continue;
      if (turn.role === 'assistant') lines.push(`AI: ${text}`);
      else if (turn.role === 'user') lines.push(`User: ${text}`);
    }
    return lines.join('\n');
  }

  private lastAssistant(): Extract<ChatCompletionMessageParam, { role: 'assistant' }> | null {
    const last = this.turns[this.turns.length - 1];
    return last?.role === 'assistant' ? last : null;
  }
}
