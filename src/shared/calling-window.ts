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

/** Whether a zone's clocks keep one offset all through a local day: then its wall times are its instants. */
const steadyDays = new Map<string, boolean>();
function isSteadyDay(local: DateTime): boolean {
  const key = `${local.zoneName}|${local.year}|${local.ordinal}`;
  let steady = steadyDays.get(key);
  if (steady === undefined) {
    const day = local.startOf('day');
    steady = day.offset === day.plus({ days: 1 }).offset;
    if (steadyDays.size > 50_000) steadyDays.clear();
    steadyDays.set(key, steady);
  }
  return steady;
}

const wallTime = (local: DateTime) => `${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`;

/**
 * The earliest instant at or after `from` inside the calling window, or null when the
 * window never opens (no calling day). Local wall times are resolved by luxon: an hour
 * repeated by fall-back means its first occurrence, and a time inside a spring-forward gap
 * is pushed forward by the gap (02:30 reads as 03:30), as Temporal's "compatible" rule does.
 */
export function nextCallingInstant(window: CallingWindow, from: Date): Date | null {
  const start = DateTime.fromJSDate(from, { zone: window.timezone });
  // The usual case, inside the window on a day without a clock change, read off the wall clock
  // (a dialer asks this for every claim; the walk below costs several zone conversions).
  if (window.calling_days.includes(WEEKDAYS[start.weekday - 1]) && isSteadyDay(start)) {
    const time = wallTime(start);
    const { start: open, end: close } = window.calling_hours;
    if (time >= open && (close === '24:00' || time < close)) return from;
  }
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
