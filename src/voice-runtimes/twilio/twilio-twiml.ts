import { runtimeLanguage, voiceById } from '../../catalog/catalog';
import { AssistantRecord } from '../assistant-record';
import { promptWithVariables } from './relay/conversation';

export const TWILIO_RELAY_PATH = '/api/telephony/twilio/relay';
export const TWILIO_STATUS_PATH = '/api/telephony/twilio/status';
export const TWILIO_RECORDING_PATH = '/api/telephony/twilio/recording';
export const TWILIO_INBOUND_PATH = '/api/telephony/twilio/inbound';
export const TWILIO_TWIML_PATH = '/api/telephony/twilio/twiml';
/** The routes Twilio posts its form bodies to. */
export const TWILIO_CALLBACK_ROUTES = [TWILIO_STATUS_PATH, TWILIO_RECORDING_PATH, TWILIO_INBOUND_PATH, TWILIO_TWIML_PATH];

/**
 * The most a `Twiml` parameter of a call's create holds (twilio.com/docs/voice/api/call-resource,
 * "Twiml": "max 4000 characters"); a longer one is served from `TWILIO_TWIML_PATH` as the call's `Url`.
 */
export const TWIML_MAX_CHARS = 4000;

/** One of the call's callback URLs: the call named in it, so a callback that comes before the create's answer is matched (docs/real-calls.md). */
export const callbackUrl = (publicUrl: string, path: string, callId: number) => `${publicBase(publicUrl)}${path}?call_id=${callId}`;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);

/** `PUBLIC_URL` without its trailing slash. */
export const publicBase = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

/** The relay's WebSocket URL as the TwiML gives it, and as Twilio signs its upgrade: `PUBLIC_URL` as ws(s). */
export const relayUrl = (publicUrl: string) => `${publicBase(publicUrl).replace(/^http/, 'ws')}${TWILIO_RELAY_PATH}`;

/**
 * docs/real-calls.md: the call is connected to the service's relay, which runs the conversation; the
 * call's id rides along as a parameter. A voice the catalog has no Twilio voice for: Twilio's default.
 * The greeting is said with the call's variables in its `{{name}}`s, as Vapi and Retell fill them;
 * an assistant that lets the customer speak first has none (ConversationRelay then waits).
 */
export function relayTwiml(
  publicUrl: string,
  assistant: Pick<AssistantRecord, 'initial_message' | 'language' | 'voice_id' | 'wait_for_customer'>,
  callId: number,
  variables: Record<string, unknown> = {},
): string {
  const voice = voiceById(assistant.voice_id)?.runtime_voices?.twilio;
  const attributes = [
    ['url', relayUrl(publicUrl)],
    ...(assistant.wait_for_customer ? [] : [['welcomeGreeting', promptWithVariables(assistant.initial_message, variables)] as const]),
    ['language', runtimeLanguage(assistant.language)],
    ...(voice ? [['ttsProvider', voice.ttsProvider] as const, ['voice', voice.voice] as const] : []),
  ]
    .map(([name, value]) => `${name}="${escaped(value)}"`)
    .join(' ');
  return `<Response><Connect><ConversationRelay ${attributes}>` + `<Parameter name="call_id" value="${callId}"/></ConversationRelay></Connect></Response>`;
}

/** A call to a number no assistant answers. */
export const REJECT_TWIML = '<Response><Reject/></Response>';
