import { CommandBus } from '@nestjs/cqrs';
import { InvokeCallTool } from '../calls/commands/invoke-call-tool';
import { DomainError } from '../shared/domain-error';
import { ToolRunResult } from '../tools/tool-runner';
import { ValidationFailed } from '../shared/validation/validation.pipe';

/**
 * A tool call as runtimes send it: OpenAI's shape `{id, function: {name, arguments}}` (Vapi's
 * `ToolCall` in @vapi-ai/server-sdk 2.x, the relay's model), or `{id, name, parameters}` as Vapi's
 * server events page shows `toolCallList` items (docs.vapi.ai, Server events, "Function Calling").
 */
type ToolCall = { id?: unknown; name?: unknown; parameters?: unknown; function?: { name?: unknown; arguments?: unknown } };

const nameOf = (item: ToolCall) =>
  typeof item?.function?.name === 'string' ? item.function.name : typeof item?.name === 'string' ? (item.name as string) : '';

/** A refusal of the arguments, as the model reads it: each field and why. */
export const invalidArguments = (error: ValidationFailed) =>
  `Invalid arguments: ${Object.entries(error.errors)
    .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
    .join('; ')}`;

/** A tool's answer body as the runtime reads it: text as it is, anything else as JSON. */
export const resultText = (result: ToolRunResult) => (typeof result.body === 'string' ? result.body : JSON.stringify(result.body ?? null));

/** Arguments sent as a JSON string or as an object. */
export function argumentsOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * docs/real-calls.md: runs each of a `tool-calls` message's tools by name as docs/api.md does (each run
 * recorded on the call); an unknown tool, or arguments its schema refuses, answer an error the
 * model reads (Vapi ignores any status but 200: docs.vapi.ai, Server URL, "Responding to events").
 */
export async function runTools(commands: CommandBus, callId: number, list: unknown) {
  const calls = (Array.isArray(list) ? list : []) as ToolCall[];
  return Promise.all(
    calls.map(async (item) => {
      const toolCallId = item?.id;
      const name = nameOf(item);
      const args = item?.function ? argumentsOf(item.function.arguments) : argumentsOf(item?.parameters);
      try {
        const result = await commands.execute<InvokeCallTool, ToolRunResult>(new InvokeCallTool(callId, name, args));
        return { toolCallId, name, result: resultText(result) };
      } catch (error) {
        if (error instanceof ValidationFailed) return { toolCallId, name, error: invalidArguments(error) };
        if (!(error instanceof DomainError)) throw error;
        return { toolCallId, name, error: error.kind === 'not_found' ? `Unknown tool ${name}.` : error.message };
      }
    }),
  );
}
