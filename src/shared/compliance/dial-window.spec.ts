import { DialContact, DialRules, mayDial, nextDialInstant } from './dial-window';

const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const rules = (more: Partial<DialRules> = {}): DialRules => ({
  calling_hours: { start: '09:00', end: '17:00' },
  calling_days: EVERY_DAY,
  window_timezone: 'assistant',
  assistant_timezone: 'America/New_York',
  quiet_hours: { start: '08:00', end: '21:00' },
  holidays: [],
  ...more,
});
const contact = (...zones: string[]): DialContact => ({ zones, doNotCall: false });
const at = (iso: string) => new Date(iso);
const next = (r: DialRules, c: DialContact, from: string) => nextDialInstant(r, c, at(from))?.toISOString() ?? null;

describe('dial window', () => {
  it("given the window in the lead's time, when the lead is in Berlin, then 09:00 Berlin opens it", () => {
    const r = rules({ window_timezone: 'lead' });
    expect(next(r, contact('Europe/Berlin'), '2026-06-01T05:00:00Z')).toBe('2026-06-01T07:00:00.000Z');
    expect(mayDial(r, contact('Europe/Berlin'), at('2026-06-01T14:59:00Z'))).toBe(true);
    expect(mayDial(r, contact('Europe/Berlin'), at('2026-06-01T15:00:00Z'))).toBe(false);
  });

  it('given a number that rings in two zones, then a time is inside only when it is inside in both', () => {
    const r = rules({ window_timezone: 'lead' });
    // 09:00 in Chicago is 10:00 in New York; 17:00 in New York closes first.
    expect(next(r, contact('America/New_York', 'America/Chicago'), '2026-06-01T12:00:00Z')).toBe('2026-06-01T14:00:00.000Z');
    expect(mayDial(r, contact('America/New_York', 'America/Chicago'), at('2026-06-01T21:00:00Z'))).toBe(false);
  });

  it("given the assistant's window, then the quiet hours still hold in the called party's time", () => {
    // 09:00 New York is 06:00 in Los Angeles: quiet until 08:00 there (15:00Z in June).
    expect(next(rules(), contact('America/Los_Angeles'), '2026-06-01T13:00:00Z')).toBe('2026-06-01T15:00:00.000Z');
  });

  it('given no zone for the number, then quiet hours fail closed and a lead-time window never opens', () => {
    expect(next(rules(), contact(), '2026-06-01T13:00:00Z')).toBeNull();
    expect(next(rules({ quiet_hours: null, window_timezone: 'lead' }), contact(), '2026-06-01T13:00:00Z')).toBeNull();
    expect(next(rules({ quiet_hours: null }), contact(), '2026-06-01T13:00:00Z')).toBe('2026-06-01T13:00:00.000Z');
  });

  it('given a number on the do-not-call list, then it is never dialed', () => {
    expect(next(rules({ quiet_hours: null }), { zones: ['America/New_York'], doNotCall: true }, '2026-06-01T13:00:00Z')).toBeNull();
  });

  it('given US holidays, then Thanksgiving 2026 is skipped in the called party’s date, and German ones are not', () => {
    const r = rules({ holidays: ['US'] });
    expect(next(r, contact('America/New_York'), '2026-11-26T15:00:00Z')).toBe('2026-11-27T14:00:00.000Z');
    // 3 October is German Unity Day: a campaign with German holidays skips it in each called party's own date.
    const de = rules({ holidays: ['DE'], window_timezone: 'lead' });
    expect(next(de, contact('Europe/Berlin'), '2026-10-03T08:00:00Z')).toBe('2026-10-04T07:00:00.000Z');
    const allDay = rules({ holidays: ['DE'], calling_hours: { start: '00:00', end: '24:00' }, quiet_hours: null, window_timezone: 'lead' });
    // 20:00Z on 2 October is already 3 October in Kolkata, still 2 October in New York.
    expect(next(allDay, contact('Asia/Kolkata'), '2026-10-02T20:00:00Z')).toBe('2026-10-03T18:30:00.000Z');
    expect(next(allDay, contact('America/New_York'), '2026-10-02T20:00:00Z')).toBe('2026-10-02T20:00:00.000Z');
  });

  it('given the skipped hour of spring forward, then a window opening inside it opens when the clocks reach it', () => {
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT. A 02:30 start is read as 03:30 EDT (luxon's "compatible" rule).
    const r = rules({ calling_hours: { start: '02:30', end: '04:00' }, quiet_hours: null });
    expect(next(r, contact('America/New_York'), '2026-03-08T06:00:00Z')).toBe('2026-03-08T07:30:00.000Z');
    expect(mayDial(r, contact('America/New_York'), at('2026-03-08T07:59:00Z'))).toBe(true);
    expect(mayDial(r, contact('America/New_York'), at('2026-03-08T08:00:00Z'))).toBe(false);
  });

  it('given the repeated hour of fall back, then the window is read from its first occurrence to the close', () => {
    // New York, 1 November 2026: 02:00 EDT becomes 01:00 EST; 01:00-01:59 happens twice.
    const r = rules({ calling_hours: { start: '01:30', end: '02:30' }, quiet_hours: null });
    expect(next(r, contact('America/New_York'), '2026-11-01T04:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
    expect(mayDial(r, contact('America/New_York'), at('2026-11-01T06:45:00Z'))).toBe(true); // 01:45 EST, the second time
    expect(mayDial(r, contact('America/New_York'), at('2026-11-01T07:30:00Z'))).toBe(false); // 02:30 EST
  });

  it("given Lord Howe's half-hour shift, then quiet hours follow its local clock", () => {
    // Lord Howe: UTC+10:30 in winter, +11 in summer (from 4 October 2026).
    const r = rules({ window_timezone: 'lead', calling_hours: { start: '00:00', end: '24:00' }, quiet_hours: { start: '08:00', end: '21:00' } });
    // 22:30 local in July, 23:00 local in December: the next 08:00 is 21:30Z, then 21:00Z.
    expect(next(r, contact('Australia/Lord_Howe'), '2026-07-01T12:00:00Z')).toBe('2026-07-01T21:30:00.000Z');
    expect(next(r, contact('Australia/Lord_Howe'), '2026-12-01T12:00:00Z')).toBe('2026-12-01T21:00:00.000Z');
  });

  it("given the README's example, then New York is dialed now and Berlin waits past Thanksgiving", () => {
    const r = rules({ window_timezone: 'lead', holidays: ['US'] });
    expect(next(r, contact('America/New_York'), '2026-11-25T20:00:00Z')).toBe('2026-11-25T20:00:00.000Z');
    expect(next(r, contact('Europe/Berlin'), '2026-11-25T20:00:00Z')).toBe('2026-11-27T08:00:00.000Z');
  });

  it('given no calling day, then the window never opens', () => {
    expect(next(rules({ calling_days: [] }), contact('America/New_York'), '2026-06-01T13:00:00Z')).toBeNull();
  });
});
