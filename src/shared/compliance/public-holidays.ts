import Holidays from 'date-holidays';

/** `US`, `US-CA`, `DE`: a country, or a country and one of its regions, as date-holidays names them. */
export function isHolidayCode(code: string): boolean {
  const [country, region, more] = code.split('-');
  if (more !== undefined || !country) return false;
  const all = new Holidays();
  if (!Object.hasOwn(all.getCountries(), country)) return false;
  return region === undefined || Object.hasOwn(all.getStates(country) ?? {}, region);
}

const calendars = new Map<string, Set<string>>();

/** The public holidays of one code in one year, as local dates `YYYY-MM-DD` (computed once). */
function publicHolidays(code: string, year: number): Set<string> {
  const key = `${code}:${year}`;
  let dates = calendars.get(key);
  if (!dates) {
    const [country, region] = code.split('-');
    const holidays = region ? new Holidays(country, region) : new Holidays(country);
    dates = new Set(holidays.getHolidays(year).flatMap((h) => (h.type === 'public' ? [h.date.slice(0, 10)] : [])));
    calendars.set(key, dates);
  }
  return dates;
}

/** Whether a local date (`YYYY-MM-DD`) is a public holiday of any of the codes. */
export function isPublicHoliday(codes: readonly string[], localDate: string): boolean {
  const year = Number(localDate.slice(0, 4));
  return codes.some((code) => publicHolidays(code, year).has(localDate));
}
