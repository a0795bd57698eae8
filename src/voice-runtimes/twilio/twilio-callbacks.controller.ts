import { Body, Controller, Headers, HttpCode, HttpException, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import { RUNTIME_SETTINGS } from '../voice-runtime';
import { TwilioSettings } from './twilio-settings';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AssistantsQueries } from '../../assistants/assistants.queries';
import { AssistantView } from '../../assistants/assistant-view';
import { ConfirmDialSent } from '../../calls/commands/call-dial';
import { RecordCallRecording } from '../../calls/commands/call-conversation';
import { ReceiveInboundCall } from '../../calls/commands/receive-inbound-call';
import { CallDocument } from '../../calls/calls.projection';
import { CallsQueries } from '../../calls/calls.queries';
import { AppConfig } from '../../infrastructure/config/app-config';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { DomainError } from '../../shared/domain-error';
import { Dialer } from '../dialer.port';
import { RuntimeReports } from '../runtime-reports';
import { isTwilios } from './twilio-signature';
import { TwilioParams, twilioAnsweredBy, twilioStatusReport } from './twilio-outcomes';
import { REJECT_TWIML, publicBase, relayTwiml } from './twilio-twiml';

/** docs/real-calls.md: Twilio's callbacks (form bodies signed with the auth token) and a number's voice URL. */
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
    @Inject(RUNTIME_SETTINGS) private readonly twilio: TwilioSettings,
    private readonly view: AssistantView,
    @Inject(Dialer) private readonly dialer: Dialer,
  ) {}

  @Post('status')
  @HttpCode(200)
  async status(@Req() req: FastifyRequest, @Headers('x-twilio-signature') signature: string | undefined, @Body() body: unknown) {
    const params = this.verified(req, signature, body);
    const call = await this.callOf(req, params.CallSid);
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
    const call = await this.callOf(req, params.CallSid);
    if (params.RecordingUrl && (params.RecordingStatus ?? 'completed') === 'completed') {
      const { position } = await this.commands.execute(new RecordCallRecording(call.id, params.RecordingUrl));
      await this.projections.settle(position);
    }
    return {};
  }

  /** A dialed call's TwiML when it is longer than a create's `Twiml` holds: Twilio fetches it from the call's `Url`. */
  @Post('twiml')
  @HttpCode(200)
  async twiml(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('x-twilio-signature') signature: string | undefined,
    @Body() body: unknown,
  ): Promise<string> {
    const params = this.verified(req, signature, body);
    const call = await this.callOf(req, params.CallSid);
    const doc = await this.assistants.get(call.assistant_id);
    void reply.header('content-type', 'text/xml');
    if (!doc) return REJECT_TWIML;
    const [assistant] = await this.view.render([doc]);
    return relayTwiml(this.config.publicUrl, assistant, call.id, call.variables ?? {});
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
      return relayTwiml(this.config.publicUrl, assistant, call_id as number);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return REJECT_TWIML;
      throw error;
    }
  }

  /**
   * An answering machine took the call: it is recorded as one, and with end_call_on_voicemail hung
   * up at Twilio. Twilio's `completed` callback then ends it with its duration (docs/real-calls.md).
   */
  private async answeredBy(call: CallDocument, params: TwilioParams): Promise<void> {
    if (twilioAnsweredBy(params.AnsweredBy) !== 'machine') return;
    await this.reports.record(call.id, { status: 'in-progress', details: { answered_by: 'machine' } });
    const settings = (await this.assistants.get(call.assistant_id))?.settings;
    if (!settings?.end_call_on_voicemail) return;
    await this.dialer.hangUp?.(params.CallSid!).catch((error: Error) => this.logger.warn(`call ${call.id} could not be hung up at Twilio: ${error.message}`));
  }

  private verified(req: FastifyRequest, signature: string | undefined, body: unknown): TwilioParams {
    const params = (body && typeof body === 'object' ? body : {}) as TwilioParams;
    const url = `${publicBase(this.config.publicUrl)}${req.url}`;
    if (typeof signature !== 'string' || !isTwilios(this.twilio, req.headers, url, params)) throw new HttpException({ message: 'Invalid signature.' }, 401);
    return params;
  }

  /**
   * The call Twilio means: named by the callback URL's `call_id` (so a callback that comes before the
   * create's answer was recorded is matched, and confirms the dial), held to its `CallSid` once
   * known; a URL without one (a dial of before) by the `CallSid` alone.
   */
  private async callOf(req: FastifyRequest, callSid: string | undefined): Promise<CallDocument> {
    const named = Number((req.query as { call_id?: unknown } | undefined)?.call_id);
    const byId = Number.isSafeInteger(named) && named > 0;
    const call = byId
      ? await this.calls.reported((calls) => calls.get(named))
      : callSid
        ? await this.calls.reported((calls) => calls.byProviderCallId(callSid))
        : null;
    if (!call || call.provider !== 'twilio' || !callSid || (call.provider_call_id !== null && call.provider_call_id !== callSid)) {
      throw new HttpException({ message: 'Call not found.' }, 404);
    }
    if (call.provider_call_id === null) await this.commands.execute(new ConfirmDialSent(call.id, callSid));
    return call;
  }
}
