import { AppConfig } from '../../../infrastructure/config/app-config';
import { VapiSettings } from '../../../infrastructure/config/voice-runtime-config';
import { DialAccepted, DialLookup, DialRefused, DialRequest, Dialer } from '../../dialer.port';
import { RuntimeApi } from '../runtime-http';
import { AssistantRecord } from '../assistant-record';
import { VapiServer, vapiAssistant } from './vapi-assistant';

export const VAPI_EVENTS_PATH = '/api/telephony/vapi/events';

interface VapiPhoneNumber {
  id: string;
  number?: string;
}

interface VapiCall {
  id: string;
  customer?: { number?: string };
  assistant?: { metadata?: { call_id?: unknown } };
  metadata?: { call_id?: unknown };
}

/** Phone numbers are looked up again at most this often when one is not found. */
const NUMBERS_FRESH_MS = 60_000;

/** `DIALER=vapi` (contract §18.1): each call a transient assistant, from the Vapi number that is the assistant's. */
export class VapiDialer extends Dialer {
  readonly provider = 'vapi' as const;
  private readonly api: RuntimeApi;
  private numbers: { byNumber: Map<string, string>; at: number } | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly vapi: VapiSettings,
  ) {
    super();
    this.api = new RuntimeApi('vapi', vapi.baseUrl, `Bearer ${vapi.apiKey}`);
  }

  /** Where Vapi sends the call's messages, with the secret they are checked by. */
  get server(): VapiServer {
    return { url: `${this.config.publicUrl.replace(/\/$/, '')}${VAPI_EVENTS_PATH}`, headers: { 'X-Vapi-Secret': this.vapi.webhookSecret } };
  }

  async dial(request: DialRequest): Promise<DialAccepted> {
    const phoneNumberId = request.from && (await this.phoneNumberId(request.from));
    if (!phoneNumberId) throw new DialRefused(`no Vapi phone number is ${request.from ?? 'set on the assistant'}`);
    const call = await this.api.call<{ id?: unknown }>('POST', '/call', {
      phoneNumberId,
      customer: { number: request.to },
      assistant: vapiAssistant(request.assistant as unknown as AssistantRecord, request.call_id, this.server),
      assistantOverrides: { variableValues: request.variables },
    });
    return { providerCallId: typeof call?.id === 'string' ? call.id : null };
  }

  /** Contract §18: the calls placed from the assistant's number since the first send, matched on our call id. */
  override async lookup(request: DialRequest, sentSince: Date): Promise<DialLookup> {
    const phoneNumberId = request.from && (await this.phoneNumberId(request.from).catch(() => null));
    if (!phoneNumberId) return 'unknown';
    const query = new URLSearchParams({ phoneNumberId, createdAtGe: sentSince.toISOString(), limit: '100' });
    const calls = await this.api.call<VapiCall[]>('GET', `/call?${query}`).catch(() => null);
    if (!Array.isArray(calls)) return 'unknown';
    const ours = (c: VapiCall) => String(c.assistant?.metadata?.call_id ?? c.metadata?.call_id) === String(request.call_id);
    const found = calls.find((c) => ours(c) && (c.customer?.number === undefined || c.customer.number === request.to));
    return found ? { found: found.id } : 'none';
  }

  /** The id of the Vapi phone number whose `number` is this one (cached; looked up again when missing). */
  private async phoneNumberId(number: string): Promise<string | null> {
    const known = this.numbers?.byNumber.get(number);
    if (known) return known;
    if (this.numbers && Date.now() - this.numbers.at < NUMBERS_FRESH_MS) return null;
    const listed = await this.api.call<VapiPhoneNumber[]>('GET', '/phone-number');
    const byNumber = new Map((Array.isArray(listed) ? listed : []).filter((n) => n.number).map((n) => [n.number!, n.id]));
    this.numbers = { byNumber, at: Date.now() };
    return byNumber.get(number) ?? null;
  }
}
