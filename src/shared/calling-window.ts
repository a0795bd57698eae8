import { DateTime } from 'luxon';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** When a campaign may call: local hours on local days of the assistant's timezone. */
export interface CallingWindow {
  timezone: string;
  calling_hours: { start: string; end: string };
  calling_days: Weekday[];
}

/** The [open, close) instants of the window on one local calendar day; `24:00` closes at the next midnight. */
function windowOn(day: DateTime, hours: CallingWindow['calling_hours']): [DateTime, DateTime] {
  const at = (hhmm: string) => {
    const [h, m] = hhmm.split(':').map(Number);
    return h === 24 ? day.plus({ days: 1 }).startOf('day') : day.set({ hour: h, minute: m, second: 0, millisecond: 0 });
  };
  return [at(hours.start), at(hours.end)];
}

/** A zone's local day as instants, and whether its clocks keep one offset all through it: then its wall times are its instants. */
interface LocalDay {
  start: number;
  /** The wall time its first instant reads, in minutes: midnight, unless the clocks skip it. */
  startMinutes: number;
  end: number;
  weekday: Weekday;
  steady: boolean;
}

/** By zone, the local day last asked about: a dialer asks about the same few days all day long. */
const lastDays = new Map<string, LocalDay>();

function localDayOf(zone: string, t: number): LocalDay | null {
  const kept = lastDays.get(zone);
  if (kept && t >= kept.start && t < kept.end) return kept;
  const local = DateTime.fromMillis(t, { zone });
  if (!local.isValid) return null;
  const start = local.startOf('day');
  const next = start.plus({ days: 1 });
  const day = {
    start: start.toMillis(),
    startMinutes: start.hour * 60 + start.minute,
    end: next.startOf('day').toMillis(),
    weekday: WEEKDAYS[local.weekday - 1],
    steady: start.offset === next.offset,
  };
  if (lastDays.size > 10_000) lastDays.clear();
  lastDays.set(zone, day);
  return day;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The wall time (`HH:MM`) at `t` on a steady local day: its first wall time and the minutes since. */
function wallTimeOn(day: LocalDay, t: number): string {
  const minutes = day.startMinutes + Math.floor((t - day.start) / 60_000);
  return `${twoDigits(Math.floor(minutes / 60))}:${twoDigits(minutes % 60)}`;
}

/**
 * The earliest instant at or after `from` inside the calling window, or null when the
 * window never opens (no calling day). Local wall times are resolved by luxon: an hour
 * repeated by fall-back means its first occurrence, and a time inside a spring-forward gap
 * is pushed forward by the gap (02:30 reads as 03:30), as Temporal's "compatible" rule does.
 */
export function nextCallingInstant(window: CallingWindow, from: Date): Date | null {
  // The usual case, inside the window on a day without a clock change, read off the wall clock
  // of a day known already (a dialer asks this for every claim and dial; the walk below costs
  // several zone conversions, and even one costs more than the rest of this answer).
  const t = from.getTime();
  const today = localDayOf(window.timezone, t);
  if (today?.steady && window.calling_days.includes(today.weekday)) {
    const time = wallTimeOn(today, t);
    const { start: open, end: close } = window.calling_hours;
    if (time >= open && (close === '24:00' || time < close)) return from;
    // Before the opening of a window later today: its wall time is an instant of the same offset.
    if (time < open && open < close) return new Date(today.start + (minutesOf(open) - today.startMinutes) * 60_000);
  }
  const start = DateTime.fromJSDate(from, { zone: window.timezone });
  for (let offset = 0; offset <= 7; offset++) {
    const day = start.plus({ days: offset }).startOf('day');
    if (!window.calling_days.includes(WEEKDAYS[day.weekday - 1])) continue;
    const [open, close] = windowOn(day, window.calling_hours);
    if (start < close) return (start > open ? start : open).toJSDate();
  }
  return null;
}

export function isInsideCallingWindow(window: CallingWindow, at: Date): boolean {
  return nextCallingInstant(window, at)?.getTime() === at.getTime();
}
