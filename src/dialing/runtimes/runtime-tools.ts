import { CommandBus } from '@nestjs/cqrs';
import { InvokeCallTool } from '../../calls/commands/invoke-call-tool';
import { DomainError } from '../../shared/domain-error';
import { ToolRunResult } from '../../tools/tool-runner';

type ToolCall = { id?: unknown; function?: { name?: unknown; arguments?: unknown } };

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
 * Contract §18.1: runs each of a `tool-calls` message's tools by name as §8 does (each run
 * recorded on the call); an unknown tool, or arguments its schema refuses, answer an error.
 */
export async function runTools(commands: CommandBus, callId: number, list: unknown) {
  const calls = (Array.isArray(list) ? list : []) as ToolCall[];
  return Promise.all(
    calls.map(async (item) => {
      const toolCallId = item?.id;
      const name = typeof item?.function?.name === 'string' ? item.function.name : '';
      try {
        const result = await commands.execute<InvokeCallTool, ToolRunResult>(new InvokeCallTool(callId, name, argumentsOf(item?.function?.arguments)));
        return { toolCallId, name, result: resultText(result) };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return { toolCallId, name, error: error.kind === 'not_found' ? `Unknown tool ${name}.` : error.message };
      }
    }),
  );
}
