import { SIGNATURE_SETTINGS_HEADER, getSignatureAlgorithm, validateRequest } from 'twilio/lib/webhooks/webhooks';
import { TwilioSettings } from './twilio-settings';

type Headers = Record<string, string | string[] | undefined>;

/**
 * Whether a request is Twilio's, by twilio-node's `validateRequest` over the URL Twilio was given:
 * signed with the auth token, or, when it carries `X-Twilio-Webhooks-Signature-Settings`
 * (`key=<sharedKeyId>,algorithm=<HMAC_SHA1|HMAC_SHA256>`), with the SharedKey's secret and the
 * algorithm that header names. A SharedKey signature is refused when no secret is configured.
 */
export function isTwilios(twilio: TwilioSettings, headers: Headers, url: string, params: Record<string, unknown>): boolean {
  const signature = headers['x-twilio-signature'];
  if (typeof signature !== 'string') return false;
  const settings = headers[SIGNATURE_SETTINGS_HEADER.toLowerCase()];
  if (typeof settings !== 'string' || settings === '') return validateRequest(twilio.authToken, signature, url, params);
  if (!twilio.sharedKeySecret) return false;
  return validateRequest(twilio.sharedKeySecret, signature, url, params, getSignatureAlgorithm(settings));
}
