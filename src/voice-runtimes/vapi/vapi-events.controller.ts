import { Body, Controller, Headers, HttpCode, HttpException, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantsQueries } from '../../assistants/assistants.queries';
import { ConfirmDialSent } from '../../calls/commands/call-dial';
import { ReceiveInboundCall } from '../../calls/commands/receive-inbound-call';
import { CallDocument } from '../../calls/calls.projection';
import { CallsQueries } from '../../calls/calls.queries';
import { AppConfig } from '../../infrastructure/config/app-config';
import { DomainError } from '../../shared/domain-error';
import { isSameSecret } from '../../shared/signature';
import { runTools } from '../runtime-tools';
import { RuntimeReports } from '../runtime-reports';
import { vapiEndOfCallReport, vapiStatusUpdate } from './vapi-outcomes';
import { vapiAssistant } from './vapi-assistant';
import { vapiServer } from './vapi-dialer';
import { VapiSettings } from './vapi-settings';
import { RUNTIME_SETTINGS } from '../voice-runtime';

type VapiCallRef = { id?: unknown; assistant?: { metadata?: { call_id?: unknown } }; metadata?: { call_id?: unknown } };
interface VapiMessage {
  type?: unknown;
  status?: unknown;
  call?: VapiCallRef & { customer?: { number?: unknown }; phoneNumber?: { number?: unknown } };
  toolCallList?: unknown;
  /** The Vapi number called (a saved number); `call.phoneNumber` is filled only for transient ones (@vapi-ai/server-sdk 2.x, `ServerMessageAssistantRequest`). */
  phoneNumber?: { number?: unknown };
  [key: string]: unknown;
}

const INVALID = () => new HttpException({ message: 'Invalid signature.' }, 401);

/** docs/real-calls.md: what Vapi sends about the calls it runs, checked by `X-Vapi-Secret`. */
@Controller('api/telephony/vapi')
export class VapiEventsController {
  constructor(
    private readonly config: AppConfig,
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly reports: RuntimeReports,
    @Inject(RUNTIME_SETTINGS) private readonly vapi: VapiSettings,
  ) {}

  @Post('events')
  @HttpCode(200)
  async event(@Headers('x-vapi-secret') secret: string | undefined, @Body() body: unknown) {
    // Mounted with DIALER=vapi only (src/voice-runtimes/registry.ts): its settings are there.
    if (!isSameSecret(secret, this.vapi.webhookSecret)) throw INVALID();
    const message = (body as { message?: VapiMessage } | null)?.message;
    if (!message || typeof message !== 'object') return {};
    if (message.type === 'assistant-request') return this.inbound(message);
    const handled = ['status-update', 'end-of-call-report', 'tool-calls'];
    if (!handled.includes(message.type as string)) return {};
    const call = await this.callOf(message.call);
    if (!call) throw new HttpException({ message: 'Call not found.' }, 404);
    if (message.type === 'tool-calls') return { results: await runTools(this.commands, call.id, message.toolCallList) };
    if (message.type === 'status-update') {
      const status = vapiStatusUpdate(message.status);
      if (status) await this.reports.record(call.id, { status, details: status === 'in-progress' ? { answered_by: 'human' } : {} });
      return {};
    }
    const fields = (await this.assistants.get(call.assistant_id))?.settings.post_call_schema ?? [];
    await this.reports.record(call.id, vapiEndOfCallReport(message as Parameters<typeof vapiEndOfCallReport>[0], call.status === 'in-progress', fields));
    return {};
  }

  /** An inbound call to a Vapi number whose server is this route: the call recorded, and its assistant for Vapi. */
  private async inbound(message: VapiMessage) {
    const to = message.phoneNumber?.number ?? message.call?.phoneNumber?.number;
    const from = message.call?.customer?.number;
    const providerCallId = typeof message.call?.id === 'string' ? message.call.id : undefined;
    if (typeof to !== 'string' || typeof from !== 'string') return { error: 'Phone number not found.' };
    try {
      const answered = await this.commands.execute(new ReceiveInboundCall(from, to, providerCallId, 'vapi'));
      return { assistant: vapiAssistant(answered.assistant, answered.call_id, vapiServer(this.config, this.vapi)) };
    } catch (error) {
      if (error instanceof DomainError) return { error: 'Phone number not found.' };
      throw error;
    }
  }

  /**
   * The call Vapi means: by Vapi's id; else, while its dial is not confirmed (a message may come
   * before the confirmation is written), by the id our transient assistant carries, which then
   * confirms it. Only calls Vapi placed are found.
   */
  private async callOf(ref: VapiCallRef | undefined): Promise<CallDocument | null> {
    const providerCallId = typeof ref?.id === 'string' ? ref.id : null;
    const ours = Number(ref?.assistant?.metadata?.call_id ?? ref?.metadata?.call_id);
    const byOurs = (calls: CallsQueries) => (Number.isSafeInteger(ours) && ours > 0 ? calls.get(ours) : Promise.resolve(null));
    const call = await this.calls.reported(async (calls) => (providerCallId && (await calls.byProviderCallId(providerCallId))) || byOurs(calls));
    if (providerCallId && call?.provider_call_id === providerCallId) return call.provider === 'vapi' ? call : null;
    if (!call || call.provider !== 'vapi' || call.provider_call_id !== null || !providerCallId) return null;
    await this.commands.execute(new ConfirmDialSent(call.id, providerCallId));
    return call;
  }
}
