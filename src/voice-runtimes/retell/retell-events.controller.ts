import { Body, Controller, Headers, HttpCode, HttpException, Inject, Param, Post, Req } from '@nestjs/common';
import { RUNTIME_SETTINGS } from '../voice-runtime';
import { RetellSettings } from './retell-settings';
import { CommandBus } from '@nestjs/cqrs';
import { verify } from 'retell-sdk';
import { AssistantsQueries } from '../../assistants/assistants.queries';
import { ConfirmDialSent } from '../../calls/commands/call-dial';
import { InvokeCallTool } from '../../calls/commands/invoke-call-tool';
import { RecordCallAnalysis } from '../../calls/commands/record-call-outcome';
import { CallDocument } from '../../calls/calls.projection';
import { CallsQueries } from '../../calls/calls.queries';
import { RawBodyRequest } from '../../infrastructure/http/json-body-parser';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { DomainError } from '../../shared/domain-error';
import { ToolRunResult } from '../../tools/tool-runner';
import { RuntimeReports } from '../runtime-reports';
import { RetellCall, retellCallAnalysis, retellCallEnded } from './retell-outcomes';
import { ValidationFailed } from '../../shared/validation/validation.pipe';
import { invalidArguments } from '../runtime-tools';

/** docs/real-calls.md: Retell's call events and custom tool calls, each signed with the API key over its raw body. */
@Controller('api/telephony/retell')
export class RetellEventsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly reports: RuntimeReports,
    private readonly projections: ProjectionRunner,
    @Inject(RUNTIME_SETTINGS) private readonly retell: RetellSettings,
  ) {}

  @Post('events')
  @HttpCode(200)
  async event(@Req() req: RawBodyRequest, @Headers('x-retell-signature') signature: string | undefined, @Body() body: unknown) {
    await this.verified(req, signature);
    const { event, call: ref } = (body ?? {}) as { event?: unknown; call?: RetellCall };
    const call = await this.callOf(ref);
    if (event === 'call_started') await this.reports.record(call.id, { status: 'in-progress', details: { answered_by: 'human' } });
    else if (event === 'call_ended') {
      // The assistant asks for an analysis: Retell sends it after the end, and the call's webhook waits for it.
      const settings = (await this.assistants.get(call.assistant_id))?.settings;
      const analysed = !!settings && (settings.post_call_schema.length > 0 || settings.post_call_evaluation);
      await this.reports.record(call.id, retellCallEnded(ref!, call.status === 'in-progress'), analysed);
    } else if (event === 'call_analyzed') {
      const fields = (await this.assistants.get(call.assistant_id))?.settings.post_call_schema ?? [];
      const { position } = await this.commands.execute(new RecordCallAnalysis(call.id, retellCallAnalysis(ref!, fields)));
      await this.projections.settle(position);
    }
    // Any other event Retell sends (transcript_updated, transfer_*) changes nothing here.
    return {};
  }

  @Post('tools/:tool_name')
  @HttpCode(200)
  async tool(
    @Req() req: RawBodyRequest,
    @Headers('x-retell-signature') signature: string | undefined,
    @Param('tool_name') name: string,
    @Body() body: unknown,
  ) {
    await this.verified(req, signature);
    const { call: ref, args } = (body ?? {}) as { call?: RetellCall; args?: unknown };
    const call = await this.callOf(ref);
    // Whatever happens, Retell's model hears why: a refusal is a 200 whose body says it.
    try {
      const result = await this.commands.execute<InvokeCallTool, ToolRunResult>(new InvokeCallTool(call.id, name, args ?? {}));
      return result.body ?? null;
    } catch (error) {
      if (error instanceof ValidationFailed) return { error: invalidArguments(error) };
      if (error instanceof DomainError && error.kind === 'not_found') return { error: `Unknown tool ${name}.` };
      throw error;
    }
  }

  private async verified(req: RawBodyRequest, signature: string | undefined): Promise<void> {
    // Mounted with DIALER=retell only (src/voice-runtimes/registry.ts): its settings are there.
    const key = this.retell.webhookApiKey;
    const valid = typeof signature === 'string' && (await verify(req.rawBody ?? '', key, signature).catch(() => false));
    if (!valid) throw new HttpException({ message: 'Invalid signature.' }, 401);
  }

  /**
   * The call Retell means, by the id our dial gave it (`metadata.call_id`): only a call Retell
   * placed, and only under the Retell id it was confirmed with, if any (which it confirms when not yet).
   */
  private async callOf(ref: RetellCall | undefined): Promise<CallDocument> {
    const retellId = typeof ref?.call_id === 'string' ? ref.call_id : null;
    const ours = Number(ref?.metadata?.call_id);
    const call = Number.isSafeInteger(ours) && ours > 0 ? await this.calls.reported((calls) => calls.get(ours)) : null;
    if (!call || call.provider !== 'retell' || !retellId || (call.provider_call_id !== null && call.provider_call_id !== retellId)) {
      throw new HttpException({ message: 'Call not found.' }, 404);
    }
    if (call.provider_call_id === null) await this.commands.execute(new ConfirmDialSent(call.id, retellId));
    return call;
  }
}
