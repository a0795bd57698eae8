import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { LRUCache } from 'lru-cache';

/** A request's number is checked by its validation rule and read again by its handler: parse it once. */
const recent = new LRUCache<string, { e164: string | null }>({ max: 1024 });
/** libphonenumber's own limit (MAX_INPUT_STRING_LENGTH in its parse.js): it reads no longer text as a number. */
const MAX_WRITTEN_LENGTH = 250;

/** E.164 of a valid number written with its `+` country code; null for anything else (docs/api.md). */
export function toE164(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  let known = recent.get(input);
  if (!known) {
    known = { e164: parse(input.trim()) };
    // A text longer than any number written (a body may hold a megabyte of one) is not kept.
    if (input.length <= MAX_WRITTEN_LENGTH) recent.set(input, known);
  }
  return known.e164;
}

function parse(input: string): string | null {
  // Digits and the punctuation people write between them: libphonenumber would read `x`, `ext` or letters as an extension or a keypad word.
  if (!/^\+[\d\s().-]+$/.test(input)) return null;
  const parsed = parsePhoneNumberFromString(input);
  return parsed && parsed.isValid() ? parsed.number : null;
}

/** Seven digits or more, one or two of a number's separators between them, with its `+` or opening bracket. */
const WRITTEN_NUMBER = /\+?\(?\d(?:[\s().-]{0,2}\d){6,}/g;

/**
 * Outside text (a runtime's refusal) with every number in it masked: Twilio's own messages name
 * the number called ("Account not authorized to call +36305830161. …"), and such a text is kept
 * in the log unsealed, where no erasure could reach it (docs/privacy.md). By digits, not
 * libphonenumber's `findNumbers`: it finds only numbers it judges valid, and a refusal for an
 * invalid number ("The 'To' number +11619771069 is not a valid phone number.") names one it does not.
 */
export const withNumbersMasked = (text: string): string => text.replace(WRITTEN_NUMBER, '[number]');
