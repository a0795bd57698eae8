import { zonesOfNumber } from '../shared/compliance/number-zones';

/** The zones a number is dialed in: the one the user gave, else those its number rings in (docs/dialing.md). */
export function zonesFor(e164: string, timezone: string | null | undefined): string[] {
  return timezone ? [timezone] : zonesOfNumber(e164);
}

/** A recorded number's zones; events recorded before zones were kept have them read from the number. */
export function zonesOf(recorded: { phone_number: string; timezone?: string | null; zones?: string[] }): string[] {
  return recorded.zones ?? zonesFor(recorded.phone_number, recorded.timezone);
}

/** The zone a lead shows: the given one, else its number's when there is exactly one. */
export function shownTimezone(recorded: { phone_number: string; timezone?: string | null; zones?: string[] }): string | null {
  if (recorded.timezone) return recorded.timezone;
  const zones = zonesOf(recorded);
  return zones.length === 1 ? zones[0] : null;
}
