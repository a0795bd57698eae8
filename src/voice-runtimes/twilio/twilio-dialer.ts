import { AppConfig } from '../../infrastructure/config/app-config';
import { TwilioSettings } from './twilio-settings';
import { DialAccepted, DialLookup, DialRefused, DialRequest, Dialer } from '../dialer.port';
import { RuntimeApi } from '../runtime-http';
import type { CallListInstanceCreateOptions } from 'twilio/lib/rest/api/v2010/account/call';
import { TWILIO_RECORDING_PATH, TWILIO_STATUS_PATH, TWILIO_TWIML_PATH, TWIML_MAX_CHARS, callbackUrl, relayTwiml } from './twilio-twiml';

interface TwilioCall {
  sid?: unknown;
  to?: unknown;
  from?: unknown;
  date_created?: unknown;
}

/** A page of Twilio's call list (twilio-node 6.x, `CallPage`): at most `PageSize` calls, newest first, and the next page's URI. */
interface TwilioCallPage {
  calls?: TwilioCall[];
  next_page_uri?: string | null;
}

/** Twilio's largest page (twilio.com/docs/usage/twilios-response#pagination: PageSize up to 1000). */
const PAGE_SIZE = 1000;

/**
 * A create's options as twilio-node types them, as the form Twilio's API takes: each name with its
 * first letter upper-cased (`statusCallback` → `StatusCallback`), a list as one field per item,
 * booleans as `true`/`false` (as twilio-node serialises them).
 */
function twilioForm(options: CallListInstanceCreateOptions): Array<[string, string]> {
  return Object.entries(options).flatMap(([name, value]): Array<[string, string]> => {
    const key = name[0].toUpperCase() + name.slice(1);
    if (value === undefined) return [];
    return [value].flat().map((item): [string, string] => [key, String(item)]);
  });
}

/** `DIALER=twilio` (docs/real-calls.md): each call connected to the service's own conversation over ConversationRelay. */
export class TwilioDialer extends Dialer {
  readonly provider = 'twilio' as const;
  private readonly api: RuntimeApi;

  constructor(
    private readonly config: AppConfig,
    twilio: TwilioSettings,
  ) {
    super();
    const credentials = Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64');
    this.api = new RuntimeApi('twilio', `${twilio.apiBaseUrl}/2010-04-01/Accounts/${encodeURIComponent(twilio.accountSid)}`, `Basic ${credentials}`, 'form');
  }

  async dial(request: DialRequest): Promise<DialAccepted> {
    if (!request.from) throw new DialRefused('no Twilio number is set on the assistant');
    const assistant = request.assistant;
    const publicUrl = this.config.publicUrl;
    const status = callbackUrl(publicUrl, TWILIO_STATUS_PATH, request.call_id);
    const twiml = relayTwiml(publicUrl, assistant, request.call_id, request.variables);
    const options: CallListInstanceCreateOptions = {
      to: request.to,
      from: request.from,
      ...(twiml.length <= TWIML_MAX_CHARS ? { twiml } : { url: callbackUrl(publicUrl, TWILIO_TWIML_PATH, request.call_id) }),
      statusCallback: status,
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      timeLimit: assistant.max_duration,
      ...(assistant.end_call_on_voicemail ? { machineDetection: 'Enable', asyncAmd: 'true', asyncAmdStatusCallback: status } : {}),
      ...(assistant.record ? { record: true, recordingStatusCallback: callbackUrl(publicUrl, TWILIO_RECORDING_PATH, request.call_id) } : {}),
    };
    const call = await this.api.call<TwilioCall>('POST', '/Calls.json', twilioForm(options));
    return { providerCallId: typeof call?.sid === 'string' ? call.sid : null };
  }

  /**
   * docs/real-calls.md: the calls from the assistant's number to the contact created since the first
   * send, through every page. Not filtered on `StartTime`: a call Twilio still holds `queued` (past
   * its rate) has none.
   */
  override async lookup(request: DialRequest, sentSince: Date): Promise<DialLookup> {
    if (!request.from) return 'unknown';
    // Twilio keeps seconds: a call created in the second of the first send is one of ours.
    const since = Math.floor(sentSince.getTime() / 1000) * 1000;
    const created = (c: TwilioCall) => Date.parse(String(c.date_created));
    let path: string | null = `/Calls.json?${new URLSearchParams({ To: request.to, From: request.from, PageSize: String(PAGE_SIZE) })}`;
    try {
      while (path) {
        const page: TwilioCallPage = await this.api.call<TwilioCallPage>('GET', path);
        if (!Array.isArray(page?.calls)) return 'unknown';
        const found = page.calls.find((c) => typeof c.sid === 'string' && created(c) >= since);
        if (found) return { found: found.sid as string };
        path = page.next_page_uri ? page.next_page_uri.replace(/^.*\/Calls\.json/, '/Calls.json') : null;
      }
      return 'none';
    } catch {
      return 'unknown';
    }
  }

  /** Hangs the call up (an answering machine took it, docs/real-calls.md). */
  override async hangUp(callSid: string): Promise<void> {
    await this.api.call('POST', `/Calls/${encodeURIComponent(callSid)}.json`, { Status: 'completed' });
  }
}
