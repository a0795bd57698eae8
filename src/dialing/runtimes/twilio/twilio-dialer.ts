import { AppConfig } from '../../../infrastructure/config/app-config';
import { TwilioSettings } from '../../../infrastructure/config/voice-runtime-config';
import { DialAccepted, DialLookup, DialRefused, DialRequest, Dialer } from '../../dialer.port';
import { AssistantRecord } from '../assistant-record';
import { RuntimeApi } from '../runtime-http';
import { TWILIO_RECORDING_PATH, TWILIO_STATUS_PATH, publicBase, relayTwiml } from './twilio-twiml';

interface TwilioCall {
  sid?: unknown;
  to?: unknown;
  from?: unknown;
  date_created?: unknown;
}

/** `DIALER=twilio` (contract §18.3): each call connected to the service's own conversation over ConversationRelay. */
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
    const assistant = request.assistant as unknown as AssistantRecord;
    const base = publicBase(this.config.publicUrl);
    const status = `${base}${TWILIO_STATUS_PATH}`;
    const form: Array<[string, string]> = [
      ['To', request.to],
      ['From', request.from],
      ['Twiml', relayTwiml(this.config.publicUrl, assistant, request.call_id)],
      ['StatusCallback', status],
      ...['initiated', 'ringing', 'answered', 'completed'].map((event): [string, string] => ['StatusCallbackEvent', event]),
      ['TimeLimit', String(assistant.max_duration)],
    ];
    if (assistant.end_call_on_voicemail) form.push(['MachineDetection', 'Enable'], ['AsyncAmd', 'true'], ['AsyncAmdStatusCallback', status]);
    if (assistant.record) form.push(['Record', 'true'], ['RecordingStatusCallback', `${base}${TWILIO_RECORDING_PATH}`]);
    const call = await this.api.call<TwilioCall>('POST', '/Calls.json', form);
    return { providerCallId: typeof call?.sid === 'string' ? call.sid : null };
  }

  /** Contract §18: the calls from the assistant's number to the contact since the first send. */
  override async lookup(request: DialRequest, sentSince: Date): Promise<DialLookup> {
    if (!request.from) return 'unknown';
    const query = new URLSearchParams({ To: request.to, From: request.from, 'StartTime>': sentSince.toISOString().slice(0, 10), PageSize: '50' });
    const page = await this.api.call<{ calls?: TwilioCall[] }>('GET', `/Calls.json?${query}`).catch(() => null);
    if (!page || !Array.isArray(page.calls)) return 'unknown';
    // Twilio keeps seconds: a call created in the second of the first send is one of ours.
    const since = Math.floor(sentSince.getTime() / 1000) * 1000;
    const found = page.calls.find((c) => typeof c.sid === 'string' && Date.parse(String(c.date_created)) >= since);
    return found ? { found: found.sid as string } : 'none';
  }

  /** Hangs the call up (an answering machine took it, contract §18.3). */
  async hangUp(callSid: string): Promise<void> {
    await this.api.call('POST', `/Calls/${encodeURIComponent(callSid)}.json`, { Status: 'completed' });
  }
}
