import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AssistantsProjection } from '../../assistants/assistants.projection';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { DomainError } from '../../shared/domain-error';
import { ToolRunResult, ToolRunner } from '../../tools/tool-runner';
import { ToolsProjection } from '../../tools/tools.projection';
import { callDecider } from '../call.decider';
import { callStream } from '../call.events';
import { CallsProjection } from '../calls.projection';

export class InvokeCallTool {
  constructor(
    readonly callId: number,
    readonly toolName: string,
    readonly args: unknown,
  ) {}
}

/** The voice runtime runs one of the call's assistant's tools; the run is recorded on the call. */
@CommandHandler(InvokeCallTool)
export class InvokeCallToolHandler implements ICommandHandler<InvokeCallTool, ToolRunResult> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly calls: CallsProjection,
    private readonly assistants: AssistantsProjection,
    private readonly tools: ToolsProjection,
    private readonly toolRunner: ToolRunner,
  ) {}

  async execute({ callId, toolName, args }: InvokeCallTool): Promise<ToolRunResult> {
    const call = await this.calls.calls.get(callId);
    if (!call) throw DomainError.notFound('Call');
    const assistant = await this.assistants.assistants.get(call.assistant_id);
    const toolIds = assistant?.settings.tool_ids ?? [];
    const [tool] = toolIds.length ? await this.tools.tools.find({ user_id: call.user_id, name: toolName, id: { in: toolIds } }, { limit: 1 }) : [];
    if (!tool) throw DomainError.notFound('Tool');
    const result = await this.toolRunner.run(tool, args);
    const invocation = {
      tool_id: tool.id,
      tool_name: tool.name,
      arguments: args as Record<string, unknown>,
      status_code: result.status_code,
      duration_ms: result.duration_ms,
      error: result.error ?? null,
    };
    await this.runner.run(callStream(callId), callDecider, { type: 'RecordToolInvocation', id: callId, invocation });
    return result;
  }
}
