import { CampaignsQueries } from '../../src/campaigns/campaigns.queries';
import { CampaignForecasts } from '../../src/forecast/campaign-forecast';
import { campaign, closeWorld, lead, setStatus, settled, world, World } from '../support/dialing-world';
import { eventually } from '../support/fake-provider';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri'];
const MINUTE = 60_000;

interface LeadForecast {
  lead_id: number;
  phone_number: string;
  next_dial_at: string | null;
  reason: string | null;
  expected_attempts: number;
}

/** docs/forecast.md: the forecast, checked against the dialer itself on the same clock. */
describe('GET /api/user/campaigns/{id}/forecast', () => {
  let w: World;
  let id: number;
  const numbers = {
    london: '+442071838750', // 13:00 in London at the start: dialed at once
    newYork: '+12125550101', // 08:00 there: at 09:00 EDT, 13:00Z
    chicago: '+13125550103', // at 09:00 CDT, 14:00Z
    losAngeles: '+13105550102', // at 09:00 PDT, 16:00Z
    tokyo: '+81312345678', // 21:00 there: the next morning, 00:00Z
    listed: '+16465550100', // on the do-not-call list
    nowhere: '+881612345678', // a satellite number: no zone, under quiet hours
  };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    // Monday 1 June 2026, 12:00 UTC.
    w = await world('2026-06-01T12:00:00Z', {});
    id = await campaign(w, {
      calling_hours: { start: '09:00', end: '17:00' },
      calling_days: WEEKDAYS,
      window_timezone: 'lead',
      max_concurrent_calls: 10,
      max_retries: 1,
    });
    for (const [name, number] of Object.entries(numbers)) ids[name] = (await lead(w, id, number)).id;
    await w.t.request('POST', '/api/user/dnc', { token: w.token, body: { phone_numbers: [numbers.listed] } });
  }, 30_000);
  afterAll(() => closeWorld(w));

  const forecastLeads = async () =>
    (await w.t.request('GET', `/api/user/campaigns/${id}/forecast/leads?per_page=100`, { token: w.token })).body.data as LeadForecast[];

  it('answers before the start: its first dial and end, dials per day, the leads never callable by reason, and the defaults it assumed', async () => {
    const res = await w.t.request('GET', `/api/user/campaigns/${id}/forecast`, { token: w.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      campaign_id: id,
      from: '2026-06-01T12:00:00.000Z',
      assumptions: { answer_rate: 0.3, average_call_seconds: 60, source: 'default' },
      first_dial_at: '2026-06-01T12:00:00.000Z',
      leads: { total: 7, callable: 5, never_callable: { total: 2, by_reason: { do_not_call: 1, no_timezone: 1 } } },
    });
    expect(Date.parse(res.body.ends_at)).toBeGreaterThanOrEqual(Date.parse('2026-06-02T00:00:00Z'));
    expect(res.body.by_day.map((day: { date: string }) => day.date)).toEqual(['2026-06-01', '2026-06-02']);
    const leads = await forecastLeads();
    const of = (name: string) => leads.find((l) => l.lead_id === ids[name])!;
    expect(of('listed')).toMatchObject({ next_dial_at: null, reason: 'do_not_call', expected_attempts: 0 });
    expect(of('nowhere')).toMatchObject({ next_dial_at: null, reason: 'no_timezone' });
    expect(of('newYork')).toMatchObject({ next_dial_at: '2026-06-01T13:00:00.000Z', reason: null });
    // Two rounds at most, the second only when the first reached nobody (70 %).
    expect(of('newYork').expected_attempts).toBeCloseTo(1.7, 5);
  });

  it('refuses what it cannot read (422) and another organisation’s campaign (404); any status and a chosen start are forecast', async () => {
    expect((await w.t.request('GET', `/api/user/campaigns/${id}/forecast?from=yesterday`, { token: w.token })).status).toBe(422);
    const other = await w.t.createUser();
    expect((await w.t.request('GET', `/api/user/campaigns/${id}/forecast`, { token: other.token })).status).toBe(404);
    const later = await w.t.request('GET', `/api/user/campaigns/${id}/forecast?from=2026-06-06T12:00:00Z`, { token: w.token });
    // Saturday: the first dial waits for Monday, in Tokyo at 09:00 JST.
    expect(later.body.first_dial_at).toBe('2026-06-08T00:00:00.000Z');
    const never = (await w.t.request('GET', `/api/user/campaigns/${id}/forecast/leads?never_callable=true`, { token: w.token })).body;
    expect(never.data.map((l: LeadForecast) => [l.phone_number, l.reason])).toEqual([
      [numbers.listed, 'do_not_call'],
      [numbers.nowhere, 'no_timezone'],
    ]);
    expect(never.total).toBe(2);
  });

  it('agrees with the dialer: each lead first dialed in the minute forecast, never before; a lead never callable is never dialed', async () => {
    const forecast = (await forecastLeads()).filter((l) => l.next_dial_at !== null).sort((a, b) => Date.parse(a.next_dial_at!) - Date.parse(b.next_dial_at!));
    expect(forecast).toHaveLength(5);
    await setStatus(w, id, 'start');
    const dialedAt = (number: string) => w.provider.dials.find((d) => d.request.to === number || d.request.phone_number === number);
    for (const expected of forecast) {
      const at = Date.parse(expected.next_dial_at!);
      if (at > w.clock.now().getTime()) {
        w.clock.set(new Date(at - MINUTE));
        await settled(w);
        expect([expected.phone_number, dialedAt(expected.phone_number) !== undefined]).toEqual([expected.phone_number, false]);
        w.clock.set(new Date(at));
      }
      await settled(w);
      expect([expected.phone_number, dialedAt(expected.phone_number) !== undefined]).toEqual([expected.phone_number, true]);
    }
    const calls = (await w.t.request('GET', `/api/user/calls?campaign_id=${id}&per_page=100`, { token: w.token })).body.data as Array<{
      client_phone_number: string;
      created_at: string;
    }>;
    for (const expected of forecast) {
      const first = calls.filter((c) => c.client_phone_number === expected.phone_number).map((c) => Date.parse(`${c.created_at.replace(' ', 'T')}Z`));
      expect([expected.phone_number, Math.floor(Math.min(...first) / MINUTE)]).toEqual([
        expected.phone_number,
        Math.floor(Date.parse(expected.next_dial_at!) / MINUTE),
      ]);
    }
    expect(calls.some((c) => c.client_phone_number === numbers.listed || c.client_phone_number === numbers.nowhere)).toBe(false);
  }, 60_000);
});

/** docs/forecast.md: when the campaign's pacing binds, its end as the dialer makes it. */
describe('the forecast end when a cap binds', () => {
  let w: World;
  afterAll(() => closeWorld(w));

  it('puts the last dial within 10 % of the forecast span of the dialer’s own last dial', async () => {
    w = await world('2026-06-02T14:00:00Z', {});
    const id = await campaign(w, {
      calling_hours: { start: '00:00', end: '24:00' },
      calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      max_concurrent_calls: 100,
      max_calls_per_minute: 5,
      max_retries: 0,
    });
    const count = 40;
    for (let i = 0; i < count; i++) await lead(w, id, `+1212555${String(2000 + i)}`);
    const forecast = (await w.t.request('GET', `/api/user/campaigns/${id}/forecast`, { token: w.token })).body;
    const from = Date.parse(forecast.from);
    const callMs = forecast.assumptions.average_call_seconds * 1000;
    // Five a minute: the capacity binds, the last of 40 leads is dialed in the eighth minute.
    expect(Date.parse(forecast.ends_at) - callMs - from).toBe(7 * MINUTE);

    await setStatus(w, id, 'start');
    for (let minute = 0; w.provider.dials.length < count && minute < 30; minute++) {
      w.clock.set(new Date(from + minute * MINUTE));
      await settled(w);
    }
    expect(w.provider.dials).toHaveLength(count);
    const calls = (await w.t.request('GET', `/api/user/calls?campaign_id=${id}&per_page=100`, { token: w.token })).body.data as Array<{ created_at: string }>;
    const lastDial = Math.max(...calls.map((c) => Date.parse(`${c.created_at.replace(' ', 'T')}Z`)));
    // The end as the forecast counts it: the last dial and a call's length after it.
    const span = Date.parse(forecast.ends_at) - from;
    expect(Math.abs(lastDial + callMs - Date.parse(forecast.ends_at))).toBeLessThanOrEqual(0.1 * span);
    // Its own history now: 40 calls, every one answered, 30 s each (the fake provider's).
    await eventually(
      async () => (await w.t.request('GET', `/api/user/campaigns/${id}`, { token: w.token })).body.status === 'completed',
      10_000,
      'the campaign to end',
    );
    const learned = (await w.t.request('GET', `/api/user/campaigns/${id}/forecast`, { token: w.token })).body;
    expect(learned.assumptions).toEqual({ answer_rate: 1, average_call_seconds: 30, source: 'history' });
  }, 60_000);
});

/** docs/forecast.md: a public holiday of the campaign's, in the lead's own time. */
describe('the forecast over a holiday', () => {
  let w: World;
  afterAll(() => closeWorld(w));

  it('skips the holiday as the dialer does: not dialed on the day it would have been, dialed in the minute forecast after it', async () => {
    // Monday 1 June 2026, 18:00 UTC: 20:00 in Rome, past its window; Tuesday 2 June is Republic Day in Italy.
    w = await world('2026-06-01T18:00:00Z', {});
    const id = await campaign(w, {
      calling_hours: { start: '09:00', end: '17:00' },
      calling_days: WEEKDAYS,
      window_timezone: 'lead',
      holidays: ['IT'],
      max_retries: 0,
    });
    await lead(w, id, '+390612345678');
    const [forecast] = (await w.t.request('GET', `/api/user/campaigns/${id}/forecast/leads`, { token: w.token })).body.data as LeadForecast[];
    expect(forecast.next_dial_at).toBe('2026-06-03T07:00:00.000Z');

    await setStatus(w, id, 'start');
    for (const at of ['2026-06-02T07:00:00Z', '2026-06-02T12:00:00Z', '2026-06-03T06:59:00Z']) {
      w.clock.set(new Date(at));
      await settled(w);
      expect([at, w.provider.dials.length]).toEqual([at, 0]);
    }
    w.clock.set(new Date(forecast.next_dial_at!));
    await settled(w);
    expect(w.provider.dials).toHaveLength(1);
  }, 30_000);
});

/** docs/forecast.md: retries, as the dialer makes them after a round that reached nobody. */
describe('the forecast of retries', () => {
  let w: World;
  afterAll(() => closeWorld(w));

  it('puts the last round where the dialer makes it when nobody answers', async () => {
    w = await world('2026-06-02T14:00:00Z', { '+12125550190': ['no-answer'] });
    const id = await campaign(w, {
      calling_hours: { start: '00:00', end: '24:00' },
      calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      max_retries: 2,
      retry_delay_seconds: 3600,
    });
    await lead(w, id, '+12125550190');
    const forecast = (await w.t.request('GET', `/api/user/campaigns/${id}/forecast`, { token: w.token })).body;
    const [one] = (await w.t.request('GET', `/api/user/campaigns/${id}/forecast/leads`, { token: w.token })).body.data as LeadForecast[];
    // Three rounds at most, each after the one before reached nobody (70 % by default).
    expect(one.expected_attempts).toBeCloseTo(1 + 0.7 + 0.49, 5);
    const callMs = forecast.assumptions.average_call_seconds * 1000;
    const lastRound = Date.parse(forecast.ends_at) - callMs;

    await setStatus(w, id, 'start');
    const dialedAt: number[] = [];
    for (let minute = 0; dialedAt.length < 3 && minute <= 150; minute += 1) {
      w.clock.set(new Date(Date.parse(forecast.from) + minute * MINUTE));
      await settled(w);
      while (dialedAt.length < w.provider.dials.length) dialedAt.push(w.clock.now().getTime());
    }
    expect(dialedAt).toHaveLength(3);
    // The dialer's rounds are an hour apart from the end of the one before; the forecast counts a call's length in between.
    const span = Date.parse(forecast.ends_at) - Date.parse(forecast.from);
    expect(Math.abs(dialedAt[2] - lastRound)).toBeLessThanOrEqual(0.1 * span);
  }, 60_000);
});

/** docs/forecast.md: a large campaign's forecast takes seconds; calls in progress and other requests are served meanwhile. */
describe('the forecast of a large campaign', () => {
  let w: World;
  afterAll(() => closeWorld(w));

  it('is computed in steps, other work let in between them, and asked twice at once is computed once', async () => {
    w = await world('2026-06-01T12:00:00Z', {});
    const id = await campaign(w, { calling_hours: { start: '09:00', end: '17:00' }, calling_days: WEEKDAYS, window_timezone: 'lead', max_retries: 1 });
    for (let n = 0; n < 2500; n += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => lead(w, id, `+1212555${String(n + i).padStart(4, '0')}`)));
    }
    const forecasts = w.t.app.get(CampaignForecasts);
    const large = (await w.t.app.get(CampaignsQueries).get(id))!;
    // Asked in-process: the stores answer synchronously, so only the forecast's own steps let other work in.
    let otherWork = 0;
    let forecasting = true;
    const more = () => {
      if (!forecasting) return;
      otherWork++;
      setImmediate(more);
    };
    setImmediate(more);
    const [first, again] = await Promise.all([forecasts.of(large, undefined), forecasts.of(large, undefined)]);
    forecasting = false;
    expect(first.leads.total).toBe(2500);
    expect(again).toBe(first);
    expect(otherWork).toBeGreaterThan(5);
  }, 60_000);
});
