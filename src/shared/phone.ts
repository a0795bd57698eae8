import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const RECENT = 1024;
/** A request's number is checked by its validation rule and read again by its handler: parse it once. */
const recent = new Map<string, string | null>();

/** E.164 of a valid number written with its `+` country code; null for anything else (contract §6). */
export function toE164(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const known = recent.get(input);
  if (known !== undefined) return known;
  const e164 = parse(input.trim());
  if (recent.size >= RECENT) recent.delete(recent.keys().next().value!);
  recent.set(input, e164);
  return e164;
}

function parse(input: string): string | null {
  if (!input.startsWith('+')) return null;
  const parsed = parsePhoneNumberFromString(input);
  return parsed && parsed.isValid() ? parsed.number : null;
}
