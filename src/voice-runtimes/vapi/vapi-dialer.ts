import { AppConfig } from '../../infrastructure/config/app-config';
import { VapiSettings } from './vapi-settings';
import { DialAccepted, DialLookup, DialRefused, DialRequest, Dialer } from '../dialer.port';
import { RuntimeApi } from '../runtime-http';
import type { Vapi } from '@vapi-ai/server-sdk';
import { VapiServer, vapiAssistant } from './vapi-assistant';
import { loadVapiModels } from './vapi-models';

export const VAPI_EVENTS_PATH = '/api/telephony/vapi/events';

type VapiPhoneNumber = Pick<Vapi.VapiPhoneNumber, 'id' | 'number' | 'createdAt'>;
type VapiCall = Pick<Vapi.Call, 'id' | 'createdAt'> & {
  customer?: { number?: string };
  assistant?: { metadata?: { call_id?: unknown } };
  metadata?: { call_id?: unknown };
};

/**
 * Vapi's lists (`GET /call`, `GET /phone-number`) answer at most `limit` items (Vapi's OpenAPI
 * document: 0 to 1000, default 100), newest first: a full page is followed by the next,
 * `createdAtLt` the oldest seen.
 */
const PAGE = 1000;

/** Where Vapi sends a call's messages, with the secret they are checked by. */
export const vapiServer = (config: AppConfig, vapi: VapiSettings): VapiServer => ({
  url: `${config.publicUrl.replace(/\/$/, '')}${VAPI_EVENTS_PATH}`,
  headers: { 'X-Vapi-Secret': vapi.webhookSecret },
});

/** Phone numbers are looked up again at most this often when one is not found. */
const NUMBERS_FRESH_MS = 60_000;

/** `DIALER=vapi` (docs/real-calls.md): each call a transient assistant, from the Vapi number that is the assistant's. */
export class VapiDialer extends Dialer {
  readonly provider = 'vapi' as const;
  private readonly api: RuntimeApi;
  private numbers: { byNumber: Map<string, string>; at: number } | null = null;

  private constructor(
    private readonly config: AppConfig,
    private readonly vapi: VapiSettings,
  ) {
    super();
    this.api = new RuntimeApi('vapi', vapi.baseUrl, `Bearer ${vapi.apiKey}`);
  }

  /** A dialer with Vapi's model lists loaded (from its SDK, only when Vapi is the runtime). */
  static async create(config: AppConfig, vapi: VapiSettings): Promise<VapiDialer> {
    await loadVapiModels();
    return new VapiDialer(config, vapi);
  }

  /** Where Vapi sends the call's messages, with the secret they are checked by. */
  get server(): VapiServer {
    return vapiServer(this.config, this.vapi);
  }

  async dial(request: DialRequest): Promise<DialAccepted> {
    const phoneNumberId = request.from && (await this.phoneNumberId(request.from));
    if (!phoneNumberId) throw new DialRefused(`no Vapi phone number is ${request.from ?? 'set on the assistant'}`);
    const body: Vapi.CreateCallDto = {
      phoneNumberId,
      customer: { number: request.to },
      assistant: vapiAssistant(request.assistant, request.call_id, this.server),
      assistantOverrides: { variableValues: request.variables },
    };
    const call = await this.api.call<{ id?: unknown }>('POST', '/call', body);
    return { providerCallId: typeof call?.id === 'string' ? call.id : null };
  }

  /** docs/real-calls.md: the calls placed from the assistant's number since the first send (every page), matched on our call id. */
  override async lookup(request: DialRequest, sentSince: Date): Promise<DialLookup> {
    const phoneNumberId = request.from && (await this.phoneNumberId(request.from).catch(() => null));
    if (!phoneNumberId) return 'unknown';
    const ours = (c: VapiCall) =>
      String(c.assistant?.metadata?.call_id ?? c.metadata?.call_id) === String(request.call_id) &&
      (c.customer?.number === undefined || c.customer.number === request.to);
    try {
      for await (const page of this.pages<VapiCall>('/call', { phoneNumberId, createdAtGe: sentSince.toISOString() })) {
        const found = page.find(ours);
        if (found) return { found: found.id };
      }
      return 'none';
    } catch {
      return 'unknown';
    }
  }

  /** Every page of one of Vapi's lists, newest first. */
  private async *pages<T extends { createdAt: string }>(path: string, filter: Record<string, string>): AsyncGenerator<T[]> {
    for (let before: string | null = null; ;) {
      const query: URLSearchParams = new URLSearchParams({ ...filter, limit: String(PAGE), ...(before ? { createdAtLt: before } : {}) });
      const page: T[] = await this.api.call<T[]>('GET', `${path}?${query}`);
      if (!Array.isArray(page)) throw new Error(`vapi answered ${path} with no list`);
      yield page;
      if (page.length < PAGE) return;
      before = page.reduce((oldest, item) => (item.createdAt < oldest ? item.createdAt : oldest), page[0].createdAt);
    }
  }

  /** The id of the Vapi phone number whose `number` is this one (cached; looked up again when missing). */
  private async phoneNumberId(number: string): Promise<string | null> {
    const known = this.numbers?.byNumber.get(number);
    if (known) return known;
    if (this.numbers && Date.now() - this.numbers.at < NUMBERS_FRESH_MS) return null;
    const byNumber = new Map<string, string>();
    for await (const page of this.pages<VapiPhoneNumber>('/phone-number', {})) for (const n of page) if (n.number) byNumber.set(n.number, n.id);
    this.numbers = { byNumber, at: Date.now() };
    return byNumber.get(number) ?? null;
  }
}
