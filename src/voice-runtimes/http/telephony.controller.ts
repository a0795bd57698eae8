import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { TelephonySignatureGuard } from './telephony-signature.guard';
import { defined } from '../../shared/defined';
import { IdParam } from '../../shared/http/id-param';
import { AppValidationPipe } from '../../shared/validation/validation.pipe';
import { CallEventDto, InboundCallDto } from '../../calls/call.dto';
import { callView } from '../../calls/calls.projection';
import { CallsQueries } from '../../calls/calls.queries';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { ToolArgumentsDto } from '../../tools/tool.dto';
import { InvokeCallTool } from '../../calls/commands/invoke-call-tool';
import { ReceiveInboundCall } from '../../calls/commands/receive-inbound-call';
import { RecordCallOutcome } from '../../calls/commands/record-call-outcome';

/**
 * What the generic HTTP runtime calls back: signed with TELEPHONY_SECRET, no user token. Mounted
 * with `DIALER=http` only (docs/real-calls.md): elsewhere these paths are unknown routes.
 */
@Controller('api/telephony')
@UseGuards(TelephonySignatureGuard)
export class TelephonyController {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
    private readonly calls: CallsQueries,
  ) {}

  @Post('calls/:call_id/events')
  @HttpCode(200)
  async recordEvent(@IdParam('Call', 'call_id') callId: number, @Body(new AppValidationPipe()) body: CallEventDto) {
    const { status, ...details } = body;
    const { position } = await this.commands.execute(new RecordCallOutcome(callId, status, defined(details), { reportedBy: 'http' }));
    await this.projections.settle(position);
    return { message: 'Event recorded.', data: callView((await this.calls.get(callId))!) };
  }

  @Post('calls/:call_id/tools/:tool_name')
  @HttpCode(200)
  invokeTool(@IdParam('Call', 'call_id') callId: number, @Param('tool_name') toolName: string, @Body(new AppValidationPipe()) body: ToolArgumentsDto) {
    return this.commands.execute(new InvokeCallTool(callId, toolName, body.arguments ?? {}, 'http'));
  }

  @Post('inbound')
  @HttpCode(200)
  inbound(@Body(new AppValidationPipe()) body: InboundCallDto) {
    return this.commands.execute(new ReceiveInboundCall(body.from, body.to, body.call_id));
  }
}
