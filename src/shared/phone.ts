import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** E.164 of a valid number written with its `+` country code; null for anything else (contract §6). */
export function toE164(input: unknown): string | null {
  if (typeof input !== 'string' || !input.trim().startsWith('+')) return null;
  const parsed = parsePhoneNumberFromString(input.trim());
  return parsed && parsed.isValid() ? parsed.number : null;
}
