import fc from 'fast-check';
import Holidays from 'date-holidays';
import { WEEKDAYS } from '../calling-window';
import { DialContact, DialRules, HoursOfDay, mayDial, nextDialInstant } from './dial-window';

const ZONES = ['America/New_York', 'America/Phoenix', 'America/Chicago', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Sydney', 'Australia/Lord_Howe'];
const HOLIDAY_CODES = ['US', 'DE', 'IN', 'AU'];
const YEAR_START = Date.parse('2026-01-01T00:00:00Z');
const YEAR_MS = 365 * 24 * 3600 * 1000;

const hhmm = (halfHours: number) => (halfHours === 48 ? '24:00' : `${String(Math.floor(halfHours / 2)).padStart(2, '0')}:${halfHours % 2 ? '30' : '00'}`);
const hours = (min: number, max: number): fc.Arbitrary<HoursOfDay> =>
  fc
    .tuple(fc.integer({ min, max }), fc.integer({ min, max }))
    .filter(([a, b]) => a < b)
    .map(([a, b]) => ({ start: hhmm(a), end: hhmm(b) }));

const rulesArb: fc.Arbitrary<DialRules> = fc.record({
  calling_hours: hours(0, 48),
  calling_days: fc.subarray([...WEEKDAYS], { minLength: 1 }),
  window_timezone: fc.constantFrom('assistant' as const, 'lead' as const),
  assistant_timezone: fc.constantFrom(...ZONES),
  // The user may only narrow the 08:00-21:00 floor; null is the operator's "no floor".
  quiet_hours: fc.option(hours(16, 42), { nil: null }),
  holidays: fc.subarray(HOLIDAY_CODES, { maxLength: 2 }),
});
const contactArb: fc.Arbitrary<DialContact> = fc.record({
  zones: fc.subarray(ZONES, { minLength: 1, maxLength: 3 }),
  doNotCall: fc.boolean().map((b) => b && Math.random() < 0.2),
});
const instantArb = fc.integer({ min: YEAR_START, max: YEAR_START + YEAR_MS });

/** Local weekday, time and date in a zone, by Intl: a second reading of the clocks, not luxon's. */
const formats = new Map<string, Intl.DateTimeFormat>();
function local(zone: string, t: number) {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
  return { weekday: parts.weekday.toLowerCase().slice(0, 3), time: `${parts.hour}:${parts.minute}`, date: `${parts.year}-${parts.month}-${parts.day}` };
}
const offset = (zone: string, t: number) => {
  const l = local(zone, t);
  return Date.parse(`${l.date}T${l.time}:00Z`) - Math.floor(t / 60000) * 60000;
};
/** Within three hours of a clock change in the zone: the skipped and repeated hours are the specs' (dial-window.spec), not this oracle's. */
const nearClockChange = (zones: readonly string[], t: number) => zones.some((z) => offset(z, t - 3 * 3600_000) !== offset(z, t + 3 * 3600_000));

const holidayCalendars = new Map<string, Set<string>>();
function holiday(codes: readonly string[], date: string): boolean {
  return codes.some((code) => {
    const key = `${code}${date.slice(0, 4)}`;
    if (!holidayCalendars.has(key)) {
      holidayCalendars.set(
        key,
        new Set(
          new Holidays(code)
            .getHolidays(Number(date.slice(0, 4)))
            .filter((h) => h.type === 'public')
            .map((h) => h.date.slice(0, 10)),
        ),
      );
    }
    return holidayCalendars.get(key)!.has(date);
  });
}

const inside = (h: HoursOfDay, time: string) => time >= h.start && (h.end === '24:00' || time < h.end);

/** docs/dialing.md read literally, instant by instant. */
function oracle(rules: DialRules, contact: DialContact, t: number): boolean {
  if (contact.doNotCall) return false;
  const windowZones = rules.window_timezone === 'assistant' ? [rules.assistant_timezone] : contact.zones;
  const inWindow = windowZones.every((z) => {
    const l = local(z, t);
    return rules.calling_days.includes(l.weekday as (typeof WEEKDAYS)[number]) && inside(rules.calling_hours, l.time);
  });
  const quiet = rules.quiet_hours;
  const inQuiet = !quiet || contact.zones.every((z) => inside(quiet, local(z, t).time));
  const offHolidays = contact.zones.every((z) => !holiday(rules.holidays, local(z, t).date));
  return inWindow && inQuiet && offHolidays;
}

const relevantZones = (rules: DialRules, contact: DialContact) => [rules.assistant_timezone, ...contact.zones];

describe('dial window, over random campaigns, quiet hours, zones and a year of clock', () => {
  it('agrees with docs/dialing.md read instant by instant', () => {
    fc.assert(
      fc.property(rulesArb, contactArb, instantArb, (rules, contact, t) => {
        fc.pre(!nearClockChange(relevantZones(rules, contact), t));
        expect(mayDial(rules, contact, new Date(t))).toBe(oracle(rules, contact, t));
      }),
      { numRuns: 500 },
    );
  });

  it('finds the first instant allowed: allowed itself, and nothing allowed before it', () => {
    fc.assert(
      fc.property(rulesArb, contactArb, instantArb, (rules, contact, from) => {
        const found = nextDialInstant(rules, contact, new Date(from))?.getTime() ?? null;
        if (found !== null) {
          expect(found).toBeGreaterThanOrEqual(from);
          expect(mayDial(rules, contact, new Date(found))).toBe(true);
        }
        const end = Math.min(found ?? Infinity, from + 4 * 24 * 3600_000);
        for (let t = from; t < end; t += 30 * 60_000) expect(mayDial(rules, contact, new Date(t))).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('never places a call outside the effective window, retrying at random delays over a year', () => {
    fc.assert(
      fc.property(
        rulesArb,
        contactArb,
        instantArb,
        fc.array(fc.integer({ min: 60_000, max: 30 * 24 * 3600_000 }), { minLength: 5, maxLength: 30 }),
        (rules, contact, from, delays) => {
          let t = from;
          for (const delay of delays) {
            const placed = nextDialInstant(rules, contact, new Date(t));
            if (placed === null) break;
            const at = placed.getTime();
            if (!nearClockChange(relevantZones(rules, contact), at))
              expect({ at: placed.toISOString(), inside: oracle(rules, contact, at) }).toEqual({ at: placed.toISOString(), inside: true });
            t = at + delay;
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
