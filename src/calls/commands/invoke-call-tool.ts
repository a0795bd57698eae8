import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AssistantsQueries } from '../../assistants/assistants.queries';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { DomainError } from '../../shared/domain-error';
import { ToolRunResult, ToolRunner } from '../../tools/tool-runner';
import { ToolsQueries } from '../../tools/tools.queries';
import { callDecider } from '../call.decider';
import { CallProvider, callStream } from '../call.events';
import { CallsQueries } from '../calls.queries';

export class InvokeCallTool {
  constructor(
    readonly callId: number,
    readonly toolName: string,
    readonly args: unknown,
    /** The runtime asking: a call another runtime placed is not found. */
    readonly reportedBy?: CallProvider,
  ) {}
}

/** The voice runtime runs one of the call's assistant's tools; the run is recorded on the call. */
@CommandHandler(InvokeCallTool)
export class InvokeCallToolHandler implements ICommandHandler<InvokeCallTool, ToolRunResult> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly calls: CallsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly tools: ToolsQueries,
    private readonly toolRunner: ToolRunner,
  ) {}

  async execute({ callId, toolName, args, reportedBy }: InvokeCallTool): Promise<ToolRunResult> {
    const call = await this.calls.get(callId);
    if (!call || (reportedBy && reportedBy !== (call.provider ?? 'http'))) throw DomainError.notFound('Call');
    const assistant = await this.assistants.get(call.assistant_id);
    const toolIds = assistant?.settings.tool_ids ?? [];
    const tool = await this.tools.named(call.user_id, toolName, toolIds);
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
    await this.runner.run(callStream(callId), callDecider, { type: 'RecordToolInvocation', id: callId, invocation, reportedBy });
    return result;
  }
}
