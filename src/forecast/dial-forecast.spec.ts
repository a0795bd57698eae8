import { DialRules, nextDialInstant } from '../shared/compliance/dial-window';
import { runToEnd } from '../shared/yield-to-io';
import { Assumptions, DialForecast, ForecastLead, ForecastSettings, forecastDials, forecastSteps } from './dial-forecast';

const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const rules = (changes: Partial<DialRules> = {}): DialRules => ({
  calling_hours: { start: '09:00', end: '17:00' },
  calling_days: [...EVERY_DAY],
  window_timezone: 'lead',
  assistant_timezone: 'America/New_York',
  quiet_hours: { start: '08:00', end: '21:00' },
  holidays: [],
  ...changes,
});
const settings = (changes: Partial<ForecastSettings> = {}): ForecastSettings => ({
  rules: rules(),
  maxRetries: 0,
  retryDelaySeconds: 3600,
  maxConcurrentCalls: 100,
  maxCallsPerMinute: null,
  ...changes,
});
const leadsOf = (forecast: DialForecast) => runToEnd(forecast.perLead());
const always: Assumptions = { answerRate: 1, averageCallSeconds: 60 };
let ids = 0;
const lead = (zones: string[], changes: Partial<ForecastLead> = {}): ForecastLead => ({
  id: ++ids,
  phone_number: `+1201555${String(ids).padStart(4, '0')}`,
  status: 'created',
  contacts: [{ zones, listed: false }],
  attempts: 0,
  dueAt: 0,
  ...changes,
});
// Wednesday 25 November 2026, 12:00 UTC: 07:00 in New York, 13:00 in Berlin.
const FROM = new Date('2026-11-25T12:00:00Z');

describe('forecastDials', () => {
  it('given leads in two zones, forecasts each first dial where the dial rules first allow it (the same function the dialer asks)', () => {
    const ny = lead(['America/New_York']);
    const berlin = lead(['Europe/Berlin']);
    const forecast = forecastDials(settings(), always, [ny, berlin], FROM);
    expect(leadsOf(forecast).map((l) => l.next_dial_at)).toEqual([
      nextDialInstant(rules(), { zones: ['America/New_York'], doNotCall: false }, FROM)!.toISOString(),
      FROM.toISOString(),
    ]);
    expect(leadsOf(forecast)[0].next_dial_at).toBe('2026-11-25T14:00:00.000Z');
    expect(forecast.first_dial_at).toBe(FROM.toISOString());
    expect(forecast.ends_at).toBe('2026-11-25T14:01:00.000Z');
  });

  it('names why a lead is never callable: every number listed, no zone while quiet hours apply, a window that never opens', () => {
    const listed = lead(['America/New_York'], {
      contacts: [
        { zones: ['America/New_York'], listed: true },
        { zones: [], listed: true },
      ],
    });
    const zoneless = lead([]);
    const fine = lead(['America/New_York']);
    const closed = forecastDials(settings({ rules: rules({ calling_hours: { start: '22:00', end: '23:00' } }) }), always, [lead(['Europe/Berlin'])], FROM);
    const forecast = forecastDials(settings(), always, [listed, zoneless, fine], FROM);
    expect(leadsOf(forecast).map((l) => [l.reason, l.next_dial_at === null])).toEqual([
      ['do_not_call', true],
      ['no_timezone', true],
      [null, false],
    ]);
    expect(forecast.leads).toEqual({ total: 3, callable: 1, never_callable: { total: 2, by_reason: { do_not_call: 1, no_timezone: 1 } } });
    expect(leadsOf(closed)[0].reason).toBe('window_never_opens');
    expect(closed.ends_at).toBeNull();
  });

  it('passes over a listed primary to the secondary contact, and leaves finished leads out', () => {
    const withSecondary = lead([], {
      contacts: [
        { zones: ['America/New_York'], listed: true },
        { zones: ['Europe/Berlin'], listed: false },
      ],
    });
    const done = lead(['Europe/Berlin'], { status: 'completed' });
    const forecast = forecastDials(settings(), always, [withSecondary, done], FROM);
    expect(leadsOf(forecast)[0]).toMatchObject({ reason: null, next_dial_at: FROM.toISOString(), expected_attempts: 1 });
    expect(leadsOf(forecast)[1]).toMatchObject({ reason: null, next_dial_at: null, expected_attempts: 0 });
    expect(forecast.leads.callable).toBe(1);
  });

  it('expects retries by the answer rate: half answered, two retries, 1 + 0.5 + 0.25 rounds', () => {
    const forecast = forecastDials(
      settings({ maxRetries: 2, retryDelaySeconds: 60 }),
      { answerRate: 0.5, averageCallSeconds: 60 },
      [lead(['Europe/Berlin'])],
      FROM,
    );
    expect(leadsOf(forecast)[0].expected_attempts).toBe(1.75);
  });

  it('when capacity binds, places the dials a minute at a time: 120 leads, one call at a time of a minute each, end two hours on', () => {
    const berliners = Array.from({ length: 120 }, () => lead(['Europe/Berlin']));
    const forecast = forecastDials(settings({ maxConcurrentCalls: 1 }), always, berliners, FROM);
    expect(forecast.first_dial_at).toBe(FROM.toISOString());
    expect(forecast.ends_at).toBe('2026-11-25T14:00:00.000Z');
    expect(forecast.by_day).toEqual([{ date: '2026-11-25', dials: 120 }]);
    expect(new Set(leadsOf(forecast).map((l) => l.next_dial_at)).size).toBe(120);
  });

  it("gives a minute's room to the leads due at one instant by their ids, whatever order they are read in", () => {
    const [first, second, third] = Array.from({ length: 3 }, () => lead(['Europe/Berlin']));
    const forecast = forecastDials(settings({ maxConcurrentCalls: 1 }), always, [third, first, second], FROM);
    const at = new Map(leadsOf(forecast).map((l) => [l.lead_id, l.next_dial_at]));
    expect([first, second, third].map((l) => at.get(l.id))).toEqual(['2026-11-25T12:00:00.000Z', '2026-11-25T12:01:00.000Z', '2026-11-25T12:02:00.000Z']);
  });

  it('places earlier instants first, whatever order their leads come in: a lead due later waits behind those pushed into its minute', () => {
    const later = lead(['Europe/Berlin'], { dueAt: FROM.getTime() + 60_000 });
    const [now, alsoNow] = [lead(['Europe/Berlin']), lead(['Europe/Berlin'])];
    const forecast = forecastDials(settings({ maxConcurrentCalls: 1 }), always, [later, now, alsoNow], FROM);
    const at = new Map(leadsOf(forecast).map((l) => [l.lead_id, l.next_dial_at]));
    expect([now, alsoNow, later].map((l) => at.get(l.id))).toEqual(['2026-11-25T12:00:00.000Z', '2026-11-25T12:01:00.000Z', '2026-11-25T12:02:00.000Z']);
  });

  it('moves dials a full window pushes out to the next day the rules allow', () => {
    // Berlin's window closes at 16:00 UTC: 240 minutes hold 240 one-minute calls; the rest wait for tomorrow's 08:00 UTC.
    const berliners = Array.from({ length: 300 }, () => lead(['Europe/Berlin']));
    const forecast = forecastDials(settings({ maxConcurrentCalls: 1 }), always, berliners, FROM);
    expect(forecast.by_day).toEqual([
      { date: '2026-11-25', dials: 240 },
      { date: '2026-11-26', dials: 60 },
    ]);
    expect(forecast.ends_at).toBe('2026-11-26T09:00:00.000Z');
  });

  it('is computed in steps of at most a thousand leads or five thousand dials, answering as when computed at once', () => {
    // 2,500 leads, two rounds each, some never callable: large enough for several steps of each loop.
    const many = Array.from({ length: 2500 }, (_, i) => lead(i % 7 === 0 ? [] : [['Europe/Berlin', 'America/New_York'][i % 2]]));
    const half: Assumptions = { answerRate: 0.5, averageCallSeconds: 60 };
    const forecastSettings = settings({ maxRetries: 1 });
    const steps = forecastSteps(forecastSettings, half, many, FROM);
    let paused = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) paused++;
    const { perLead, ...summary } = step.value;
    const { perLead: atOnceLeads, ...atOnce } = forecastDials(forecastSettings, half, many, FROM);
    expect(summary).toEqual(atOnce);
    expect(summary.leads.never_callable.total).toBeGreaterThan(0);
    expect(paused).toBeGreaterThanOrEqual(3);
    const leadSteps = perLead();
    let leadPauses = 0;
    let leadStep = leadSteps.next();
    for (; !leadStep.done; leadStep = leadSteps.next()) leadPauses++;
    expect(leadStep.value).toEqual(runToEnd(atOnceLeads()));
    expect(leadPauses).toBeGreaterThanOrEqual(1);
  });
});
