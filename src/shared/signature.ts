import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=<hex HMAC-SHA256 of the raw body>`: the form of X-Signature and X-Webhook-Signature. */
export function sign(rawBody: string, key: string): string {
  return `sha256=${createHmac('sha256', key).update(rawBody).digest('hex')}`;
}

/** Compares in constant time, so the answer's timing tells nothing about the expected signature. */
export function hasValidSignature(rawBody: string, key: string, header: string | undefined): boolean {
  return typeof header === 'string' && isSameSecret(header.trim(), sign(rawBody, key));
}

/** Whether a shared secret sent as it is (Vapi's `X-Vapi-Secret`, a bearer token) is the expected one, compared in constant time whatever their lengths. */
export function isSameSecret(given: string | undefined, expected: string): boolean {
  if (typeof given !== 'string' || expected === '') return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
