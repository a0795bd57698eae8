import { DateTime } from 'luxon';
import { CallingWindow, WEEKDAYS, isInsideCallingWindow, nextCallingInstant } from './calling-window';

const weekdays = WEEKDAYS.slice(0, 5);
const window = (timezone: string, start = '09:00', end = '17:00', days = weekdays): CallingWindow => ({
  timezone,
  calling_hours: { start, end },
  calling_days: [...days],
});
const next = (w: CallingWindow, from: string) => nextCallingInstant(w, new Date(from))?.toISOString();

describe('calling window', () => {
  it('is open inside the local hours of a calling day, in zones west and east of UTC', () => {
    // Tuesday 2025-01-14. New York is UTC-5 in winter, Kolkata UTC+5:30 all year.
    expect(isInsideCallingWindow(window('America/New_York'), new Date('2025-01-14T14:00:00Z'))).toBe(true);
    expect(isInsideCallingWindow(window('America/New_York'), new Date('2025-01-14T13:59:59Z'))).toBe(false);
    expect(isInsideCallingWindow(window('America/New_York'), new Date('2025-01-14T22:00:00Z'))).toBe(false);
    expect(isInsideCallingWindow(window('Asia/Kolkata'), new Date('2025-01-14T03:30:00Z'))).toBe(true);
    expect(isInsideCallingWindow(window('Asia/Kolkata'), new Date('2025-01-14T03:29:00Z'))).toBe(false);
    expect(isInsideCallingWindow(window('Asia/Kolkata'), new Date('2025-01-14T11:29:59Z'))).toBe(true);
  });

  it('moves an instant before the opening to the opening, and one after the close to the next calling day', () => {
    expect(next(window('America/New_York'), '2025-01-14T12:00:00Z')).toBe('2025-01-14T14:00:00.000Z');
    expect(next(window('America/New_York'), '2025-01-14T22:00:00Z')).toBe('2025-01-15T14:00:00.000Z');
  });

  it('skips the weekend: Friday evening moves to Monday morning', () => {
    // Friday 2025-01-17 18:00 in Berlin (UTC+1) → Monday 2025-01-20 09:00 local.
    expect(next(window('Europe/Berlin'), '2025-01-17T17:00:00Z')).toBe('2025-01-20T08:00:00.000Z');
    expect(isInsideCallingWindow(window('Europe/Berlin'), new Date('2025-01-18T10:00:00Z'))).toBe(false);
  });

  it('keeps local hours across the spring-forward change in New York and Berlin', () => {
    // New York springs forward on Sunday 2025-03-09: 09:00 local is 14:00Z on Saturday, 13:00Z on Monday.
    const everyDay = window('America/New_York', '09:00', '17:00', [...WEEKDAYS]);
    expect(next(everyDay, '2025-03-08T23:00:00Z')).toBe('2025-03-09T13:00:00.000Z');
    expect(next(window('America/New_York'), '2025-03-07T23:00:00Z')).toBe('2025-03-10T13:00:00.000Z');
    // Berlin springs forward on Sunday 2025-03-30: 09:00 local is 07:00Z from then on.
    expect(next(window('Europe/Berlin'), '2025-03-28T17:00:00Z')).toBe('2025-03-31T07:00:00.000Z');
  });

  it('keeps local hours across the fall-back change', () => {
    // New York falls back on Sunday 2025-11-02: 09:00 local is 13:00Z before, 14:00Z after.
    const everyDay = window('America/New_York', '09:00', '17:00', [...WEEKDAYS]);
    expect(next(everyDay, '2025-11-01T20:00:00Z')).toBe('2025-11-01T20:00:00.000Z');
    expect(next(everyDay, '2025-11-01T21:00:00Z')).toBe('2025-11-02T14:00:00.000Z');
    // Berlin falls back on Sunday 2025-10-26.
    expect(next(window('Europe/Berlin'), '2025-10-24T16:00:00Z')).toBe('2025-10-27T08:00:00.000Z');
  });

  it('opens a window whose start falls in the spring-forward gap as many minutes after the gap', () => {
    // 02:30 does not exist in New York on 2025-03-09: like Temporal's "compatible" rule, it reads as 03:30 EDT = 07:30Z.
    const night = window('America/New_York', '02:30', '05:00', ['sun']);
    expect(next(night, '2025-03-09T05:00:00Z')).toBe('2025-03-09T07:30:00.000Z');
  });

  it('closes a window ending at 24:00 at the next local midnight', () => {
    const late = window('Europe/Berlin', '20:00', '24:00', ['fri']);
    expect(isInsideCallingWindow(late, new Date('2025-01-17T22:59:59Z'))).toBe(true);
    expect(next(late, '2025-01-17T23:00:00Z')).toBe('2025-01-24T19:00:00.000Z');
  });

  it('never opens without a calling day', () => {
    expect(nextCallingInstant(window('UTC', '09:00', '17:00', []), new Date('2025-01-14T10:00:00Z'))).toBeNull();
  });

  it('reads a local day once and answers its instants by arithmetic, as the zone conversion would, also on days the clocks change', () => {
    // Zones with whole-hour, half-hour (Lord Howe) and 45-minute offsets and changes, and Santiago's at midnight.
    const zones = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'America/Santiago', 'Asia/Kathmandu'];
    // Hours clear of the changes (between midnight and 03:00), where a wall time read at once is the window's own.
    const windows = (zone: string) => [
      window(zone),
      window(zone, '00:00', '24:00', [...WEEKDAYS]),
      window(zone, '20:00', '24:00', ['fri', 'sun']),
      window(zone, '08:30', '12:15', ['mon', 'tue', 'wed', 'thu', 'fri', 'sat']),
      window(zone, '09:00', '17:00', [...WEEKDAYS]),
    ];
    const insideByItsWallClock = (w: CallingWindow, t: number) => {
      const local = DateTime.fromMillis(t, { zone: w.timezone });
      const time = local.toFormat('HH:mm');
      return (
        w.calling_days.includes(WEEKDAYS[local.weekday - 1]) && time >= w.calling_hours.start && (w.calling_hours.end === '24:00' || time < w.calling_hours.end)
      );
    };
    // Before a calling day's window opens, on a day without a change: the opening, by the zone conversion.
    const laterToday = (w: CallingWindow, t: number) => {
      const local = DateTime.fromMillis(t, { zone: w.timezone });
      const [hour, minute] = w.calling_hours.start.split(':').map(Number);
      const steady = local.startOf('day').offset === local.startOf('day').plus({ days: 1 }).offset;
      const calling = w.calling_days.includes(WEEKDAYS[local.weekday - 1]);
      return steady && calling && local.toFormat('HH:mm') < w.calling_hours.start
        ? local.set({ hour, minute, second: 0, millisecond: 0 }).toMillis()
        : undefined;
    };
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const yearStart = Date.UTC(2025, 0, 1);
    const differing: string[] = [];
    for (const zone of zones) {
      const instants: number[] = [];
      // Every quarter of an hour of the days the clocks change, the days before and after them, and instants all year.
      for (let day = DateTime.fromMillis(yearStart, { zone }).startOf('day'); day.year === 2025; day = day.plus({ days: 1 })) {
        if (day.offset === day.plus({ days: 1 }).offset) continue;
        for (let t = day.minus({ days: 1 }).toMillis(); t < day.plus({ days: 2 }).toMillis(); t += 15 * 60_000) instants.push(t);
      }
      for (let i = 0; i < 500; i++) instants.push(yearStart + Math.floor(random() * 365 * 24 * 60) * 60_000);
      for (const w of windows(zone)) {
        for (const t of instants) {
          if (isInsideCallingWindow(w, new Date(t)) !== insideByItsWallClock(w, t)) differing.push(`${zone} ${new Date(t).toISOString()} inside`);
          const opening = laterToday(w, t);
          if (opening !== undefined && nextCallingInstant(w, new Date(t))?.getTime() !== opening) differing.push(`${zone} ${new Date(t).toISOString()} opens`);
        }
      }
    }
    expect(differing).toEqual([]);
  });
});
