import { Body, Controller, Headers, HttpCode, HttpException, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import { AssistantsQueries } from '../../../assistants/assistants.queries';
import { RecordCallRecording } from '../../../calls/commands/call-conversation';
import { ReceiveInboundCall } from '../../../calls/commands/receive-inbound-call';
import { CallDocument } from '../../../calls/calls.projection';
import { CallsQueries } from '../../../calls/calls.queries';
import { AppConfig } from '../../../infrastructure/config/app-config';
import { ProjectionRunner } from '../../../infrastructure/projections/projection-runner';
import { DomainError } from '../../../shared/domain-error';
import { Dialer } from '../../dialer.port';
import { AssistantRecord } from '../assistant-record';
import { RuntimeReports } from '../runtime-reports';
import { TwilioDialer } from './twilio-dialer';
import { TwilioParams, twilioAnsweredBy, twilioStatusReport } from './twilio-outcomes';
import { REJECT_TWIML, publicBase, relayTwiml } from './twilio-twiml';

/** Contract §18.3: Twilio's callbacks (form bodies signed with the auth token) and a number's voice URL. */
@Controller('api/telephony/twilio')
export class TwilioCallbacksController {
  private readonly logger = new Logger('Twilio');

  constructor(
    private readonly config: AppConfig,
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly reports: RuntimeReports,
    private readonly projections: ProjectionRunner,
    @Inject(Dialer) private readonly dialer: Dialer,
  ) {}

  @Post('status')
  @HttpCode(200)
  async status(@Req() req: FastifyRequest, @Headers('x-twilio-signature') signature: string | undefined, @Body() body: unknown) {
    const params = this.verified(req, signature, body);
    const call = await this.callOf(params.CallSid);
    // The answering-machine verdict (AsyncAmd) comes on its own, without a CallStatus.
    if (params.CallStatus === undefined) await this.answeredBy(call, params);
    const report = twilioStatusReport(params, call.answered_by ?? null);
    // The relay records the conversation (its transcript, the analysis) once it closes: the webhook waits for it.
    if (report) await this.reports.record(call.id, report, report.status === 'ended_by_customer' || report.status === 'ended');
    return {};
  }

  @Post('recording')
  @HttpCode(200)
  async recording(@Req() req: FastifyRequest, @Headers('x-twilio-signature') signature: string | undefined, @Body() body: unknown) {
    const params = this.verified(req, signature, body);
    const call = await this.callOf(params.CallSid);
    if (params.RecordingUrl && (params.RecordingStatus ?? 'completed') === 'completed') {
      const { position } = await this.commands.execute(new RecordCallRecording(call.id, params.RecordingUrl));
      await this.projections.settle(position);
    }
    return {};
  }

  /** A Twilio number's voice URL: an inbound call for the assistant holding the number, connected to the relay. */
  @Post('inbound')
  @HttpCode(200)
  async inbound(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('x-twilio-signature') signature: string | undefined,
    @Body() body: unknown,
  ): Promise<string> {
    const params = this.verified(req, signature, body);
    void reply.header('content-type', 'text/xml');
    try {
      const { call_id, assistant } = await this.commands.execute(new ReceiveInboundCall(params.From ?? '', params.To ?? '', params.CallSid, 'twilio'));
      return relayTwiml(this.config.publicUrl, assistant as unknown as AssistantRecord, call_id as number);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return REJECT_TWIML;
      throw error;
    }
  }

  /** An answering machine took the call: with end_call_on_voicemail it ends now, hung up at Twilio. */
  private async answeredBy(call: CallDocument, params: TwilioParams): Promise<void> {
    if (twilioAnsweredBy(params.AnsweredBy) !== 'machine' || !(this.dialer instanceof TwilioDialer)) return;
    const settings = (await this.assistants.get(call.assistant_id))?.settings;
    if (!settings?.end_call_on_voicemail) return;
    await this.reports.record(call.id, { status: 'ended', details: { answered_by: 'machine' } }, true);
    await this.dialer.hangUp(params.CallSid!).catch((error: Error) => this.logger.warn(`call ${call.id} could not be hung up at Twilio: ${error.message}`));
  }

  private verified(req: FastifyRequest, signature: string | undefined, body: unknown): TwilioParams {
    const twilio = this.config.runtimes.twilio;
    if (!twilio) throw new HttpException({ message: 'Not found.' }, 404);
    const params = (body && typeof body === 'object' ? body : {}) as TwilioParams;
    const url = `${publicBase(this.config.publicUrl)}${req.url}`;
    if (typeof signature !== 'string' || !validateRequest(twilio.authToken, signature, url, params)) {
      throw new HttpException({ message: 'Invalid signature.' }, 401);
    }
    return params;
  }

  /** The call Twilio means, by its `CallSid` (confirmed on the call as the dial's answer was read). */
  private async callOf(callSid: string | undefined): Promise<CallDocument> {
    const call = callSid ? await this.calls.reported((calls) => calls.byProviderCallId(callSid)) : null;
    if (!call || call.provider !== 'twilio') throw new HttpException({ message: 'Call not found.' }, 404);
    return call;
  }
}
