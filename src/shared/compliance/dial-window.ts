import { DateTime } from 'luxon';
import { CallingWindow, WEEKDAYS, Weekday, nextCallingInstant } from '../calling-window';
import { isPublicHoliday } from './public-holidays';

export type HoursOfDay = { start: string; end: string };

/** Everything that decides when a campaign may dial (docs/dialing.md), but the contact. */
export interface DialRules {
  calling_hours: HoursOfDay;
  calling_days: readonly Weekday[];
  /** Whose local time the calling hours and days are read in. */
  window_timezone: 'assistant' | 'lead';
  assistant_timezone: string;
  /** The user's quiet hours, in the called party's local time; null: no floor at all. */
  quiet_hours: HoursOfDay | null;
  /** date-holidays codes: no call on their public holidays, in the called party's local date. */
  holidays: readonly string[];
}

/** The contact to be dialed: the zones its number rings in (given, or from its number) and whether it is on the do-not-call list. */
export interface DialContact {
  zones: readonly string[];
  doNotCall: boolean;
}

/** How far ahead the next instant is looked for; beyond it the contact is taken as never dialable. */
const HORIZON_MS = 400 * 24 * 3600 * 1000;
const ALL_DAYS = WEEKDAYS;

/**
 * One rule: the earliest instant at or after `t` it allows (`t` itself when it allows `t`), or
 * null when it never will. Every rule's allowed instants are a union of [open, close) spans.
 */
type Rule = (t: number) => number | null;

const daily =
  (window: CallingWindow): Rule =>
  (t) =>
    nextCallingInstant(window, new Date(t))?.getTime() ?? null;

const notOnHoliday =
  (codes: readonly string[], zone: string): Rule =>
  (t) => {
    let local = DateTime.fromMillis(t, { zone });
    for (let days = 0; days < 60 && isPublicHoliday(codes, local.toISODate()!); days++) local = local.plus({ days: 1 }).startOf('day');
    return local.toMillis() === t ? t : local.toMillis();
  };

const never: Rule = () => null;

/** The rules a contact is held to; a rule that needs the called party's zone fails closed without one. */
function rulesFor(rules: DialRules, contact: DialContact): Rule[] {
  if (contact.doNotCall) return [never];
  const out: Rule[] = [];
  const windowZones = rules.window_timezone === 'assistant' ? [rules.assistant_timezone] : contact.zones;
  if (!windowZones.length) return [never];
  for (const zone of windowZones) out.push(daily({ timezone: zone, calling_hours: rules.calling_hours, calling_days: [...rules.calling_days] }));
  if (rules.quiet_hours || rules.holidays.length) {
    if (!contact.zones.length) return [never];
    for (const zone of contact.zones) {
      if (rules.quiet_hours) out.push(daily({ timezone: zone, calling_hours: rules.quiet_hours, calling_days: [...ALL_DAYS] }));
      if (rules.holidays.length) out.push(notOnHoliday(rules.holidays, zone));
    }
  }
  return out;
}

/**
 * The earliest instant at or after `from` at which the contact may be dialed, or null when it
 * never may (do-not-call, no zone where one is needed, no calling day) within about a year.
 * Each rule is asked for its next allowed instant and the latest answer is tried again, until
 * every rule allows the same instant: no allowed instant is ever skipped, since each one passed
 * over was refused by the rule that answered latest.
 */
export function nextDialInstant(rules: DialRules, contact: DialContact, from: Date): Date | null {
  const checks = rulesFor(rules, contact);
  const limit = from.getTime() + HORIZON_MS;
  let t = from.getTime();
  for (;;) {
    let next = t;
    for (const rule of checks) {
      const allowed = rule(next);
      if (allowed === null) return null;
      next = Math.max(next, allowed);
    }
    if (next === t) return new Date(t);
    if (next > limit) return null;
    t = next;
  }
}

/** Whether the contact may be dialed at `at`: inside the campaign's window, the quiet hours, off holidays, not on the do-not-call list. */
export function mayDial(rules: DialRules, contact: DialContact, at: Date): boolean {
  return rulesFor(rules, contact).every((rule) => rule(at.getTime()) === at.getTime());
}
