import { CommandBus } from '@nestjs/cqrs';
import { DialScheduler } from '../../src/dialing/dial-scheduler';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { StartLeadCall } from '../../src/leads/commands/start-lead-call';
import { ALWAYS_OPEN } from '../../src/testing/dial-policy.fixture';
import { sign } from '../../src/shared/signature';
import { SetQuietHours } from '../../src/users/commands/set-quiet-hours';
import { eventually } from '../support/fake-provider';
import { EVERY_DAY, SECRET, World, campaign, getCampaign, lead, leadsOf, setStatus, settled, world } from '../support/dialing-world';

const history = async (w: World, id: number) => (await w.t.request('GET', `/api/user/campaigns/${id}/history?limit=1000`, { token: w.token })).body.data;
const byNumber = (leads: Array<{ phone_number: string }>, n: string) => leads.find((l) => l.phone_number === n) as any;
const advance = async (w: World, to: string) => {
  w.clock.set(new Date(to));
  w.t.app.get(DialScheduler).nudge();
  await settled(w);
};

/** docs/dialing.md over HTTP, with the fake provider. */
describe('compliance-grade dialing', () => {
  describe("a window read in each lead's own time, under the quiet hours", () => {
    let w: World;
    const berlin = '+4930123456';
    const newYork = '+12015550701';
    // Monday 1 June 2026, 06:00 UTC: 08:00 in Berlin, 02:00 in New York.
    beforeAll(async () => (w = await world('2026-06-01T06:00:00Z', {}, { DEFAULT_QUIET_HOURS: '08:00-21:00' })));
    afterAll(async () => {
      await w.t.close();
      await w.provider.stop();
    });

    it('dials each lead only once its own 09:00 comes, and shows when and why it waits', async () => {
      const id = await campaign(w, { window_timezone: 'lead', calling_hours: { start: '09:00', end: '17:00' }, calling_days: EVERY_DAY });
      await lead(w, id, berlin);
      await lead(w, id, newYork);
      expect((await setStatus(w, id, 'start')).status).toBe(200);
      await settled(w);
      expect(w.provider.dials).toEqual([]);
      let leads = await leadsOf(w, id);
      expect(byNumber(leads, berlin)).toMatchObject({ timezone: 'Europe/Berlin', next_attempt_at: '2026-06-01T07:00:00.000Z', attempts: 0 });
      expect(byNumber(leads, newYork)).toMatchObject({ timezone: 'America/New_York', next_attempt_at: '2026-06-01T13:00:00.000Z' });
      expect((await history(w, id)).filter((e: { type: string }) => e.type === 'LeadDialDeferred')).toHaveLength(2);
      // Nothing may be dialed now: the campaign says when dialing resumes.
      expect((await getCampaign(w, id)).next_window_at).toBe('2026-06-01T07:00:00.000Z');

      await advance(w, '2026-06-01T07:00:00Z');
      expect(w.provider.dials.map((d) => d.request.to)).toEqual([berlin]);
      await advance(w, '2026-06-01T12:59:00Z');
      expect(w.provider.dials).toHaveLength(1);
      expect((await getCampaign(w, id)).next_window_at).toBe('2026-06-01T13:00:00.000Z');
      await advance(w, '2026-06-01T13:00:00Z');
      expect(w.provider.dials.map((d) => d.request.to)).toEqual([berlin, newYork]);
      await eventually(async () => (await getCampaign(w, id)).status === 'completed', 10_000, 'the campaign to complete');
      leads = await leadsOf(w, id);
      expect(byNumber(leads, newYork)).toMatchObject({ status: 'completed', attempts: 1, last_call_status: 'completed', next_attempt_at: null });
    });

    it('keeps the user’s narrower quiet hours, refuses wider ones, and lets only the operator lift them', async () => {
      const settings = async () => ({ body: { quiet_hours: (await w.t.request('GET', '/api/user/settings', { token: w.token })).body.quiet_hours } });
      expect((await settings()).body).toEqual({ quiet_hours: { start: '08:00', end: '21:00' } });
      const narrower = await w.t.request('PUT', '/api/user/settings', { token: w.token, body: { quiet_hours: { start: '09:00', end: '20:00' } } });
      expect(narrower.status).toBe(200);
      expect((await settings()).body).toEqual({ quiet_hours: { start: '09:00', end: '20:00' } });
      const wider = await w.t.request('PUT', '/api/user/settings', { token: w.token, body: { quiet_hours: { start: '07:00', end: '21:00' } } });
      expect(wider.status).toBe(422);
      expect(wider.body).toEqual({ message: 'Validation failed', errors: { quiet_hours: [expect.stringContaining('08:00-21:00')] } });
      const me = (await w.t.request('GET', '/api/user/me', { token: w.token })).body;
      await w.t.app.get(CommandBus).execute(new SetQuietHours(me.id, null, 'operator'));
      expect((await settings()).body).toEqual({ quiet_hours: null });
    });
  });

  describe('holidays, lead timezones and their validation', () => {
    let w: World;
    // Thanksgiving, Thursday 26 November 2026, 10:00 in New York.
    beforeAll(async () => (w = await world('2026-11-26T15:00:00Z', {})));
    afterAll(async () => {
      await w.t.close();
      await w.provider.stop();
    });

    it('never dials on a public holiday of the campaign’s calendars, in the called party’s date', async () => {
      const id = await campaign(w, { holidays: ['US'], calling_hours: { start: '09:00', end: '17:00' }, calling_days: EVERY_DAY });
      expect((await getCampaign(w, id)).holidays).toEqual(['US']);
      await lead(w, id, '+12015550721');
      await setStatus(w, id, 'start');
      await settled(w);
      expect(w.provider.dials).toEqual([]);
      expect((await leadsOf(w, id))[0].next_attempt_at).toBe('2026-11-27T14:00:00.000Z');
      expect((await getCampaign(w, id)).next_window_at).toBe('2026-11-27T14:00:00.000Z');
      await advance(w, '2026-11-27T14:00:00Z');
      expect(w.provider.dials).toHaveLength(1);
    });

    it('refuses unknown holiday calendars, window timezones and lead timezones; keeps a lead’s own zone', async () => {
      const assistant = (await w.t.request('GET', '/api/user/assistants/get', { token: w.token })).body.data[0].id;
      const refused = await w.t.request('POST', '/api/user/campaigns', {
        token: w.token,
        body: {
          name: 'Bad',
          assistant_id: assistant,
          holidays: ['US', 'XX'],
          window_timezone: 'moon',
          retry_policy: { voicemail: { retry: true } },
        },
      });
      expect(refused.status).toBe(422);
      expect(Object.keys(refused.body.errors).sort()).toEqual(['holidays', 'retry_policy', 'window_timezone']);
      const badDelay = await w.t.request('POST', '/api/user/campaigns', {
        token: w.token,
        body: { name: 'Bad', assistant_id: assistant, retry_policy: { busy: { retry: 'yes', delay_seconds: -1 } } },
      });
      expect(Object.keys(badDelay.body.errors).sort()).toEqual(['retry_policy.busy.delay_seconds', 'retry_policy.busy.retry']);
      const kept = await campaign(w, { retry_policy: { busy: { retry: true, delay_seconds: 300 }, machine: { retry: false } } });
      expect((await getCampaign(w, kept)).retry_policy).toEqual({ busy: { retry: true, delay_seconds: 300 }, machine: { retry: false } });
      const id = await campaign(w, { window_timezone: 'lead', holidays: ['US-CA', 'DE'] });
      const made = await w.t.request('POST', '/api/user/lead', {
        token: w.token,
        body: {
          campaign_id: id,
          phone_number: '+12015550722',
          timezone: 'Asia/Kolkata',
          secondary_contacts: [{ phone_number: '+12015550723', timezone: 'Europe/Berlin' }],
        },
      });
      expect(made.status).toBe(200);
      expect(made.body.data.timezone).toBe('Asia/Kolkata');
      const bad = await w.t.request('POST', '/api/user/lead', {
        token: w.token,
        body: { campaign_id: id, phone_number: '+12015550724', timezone: 'Mars/Base' },
      });
      expect(bad.status).toBe(422);
      expect(bad.body.errors.timezone).toEqual(['The timezone field must be a valid timezone.']);
    });
  });

  describe('the do-not-call list and opt-outs', () => {
    let w: World;
    const listed = '+12015550711';
    const listedPrimary = '+12015550712';
    const itsContact = '+12015550713';
    const optingOut = '+12015550714';
    // Tuesday 2 June 2026, 11:00 in New York; quiet hours off (the test app's default).
    beforeAll(async () => (w = await world('2026-06-02T15:00:00Z', { [optingOut]: ['silence'] })));
    afterAll(async () => {
      await w.t.close();
      await w.provider.stop();
    });

    it('never dials a listed number: passes over it to the next contact, ends a lead whose every number is listed', async () => {
      const id = await campaign(w, { calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY });
      const onlyListed = await lead(w, id, listed);
      const withContact = await lead(w, id, listedPrimary, [itsContact]);
      await lead(w, id, optingOut);
      const bad = await w.t.request('POST', '/api/user/dnc', { token: w.token, body: { phone_numbers: ['+1 201-555-0711', 'not a number'] } });
      expect(bad.status).toBe(422);
      const none = await w.t.request('POST', '/api/user/dnc', { token: w.token, body: { reason: 'asked' } });
      expect([none.status, none.body.errors]).toEqual([422, { phone_numbers: ['The phone numbers field is required.'] }]);
      const added = await w.t.request('POST', '/api/user/dnc', {
        token: w.token,
        body: { phone_numbers: ['+1 201-555-0711', listedPrimary, listed], reason: 'asked' },
      });
      expect(added.body).toEqual({ message: 'Numbers added to the do-not-call list.', added: 2 });
      await setStatus(w, id, 'start');
      await settled(w);
      expect(w.provider.dials.map((d) => d.request.to).sort()).toEqual([itsContact, optingOut]);
      const leads = await leadsOf(w, id);
      expect(byNumber(leads, listed)).toMatchObject({ id: onlyListed.id, status: 'completed', stopped_reason: 'do-not-call', attempts: 0 });
      expect(byNumber(leads, listedPrimary)).toMatchObject({ id: withContact.id, status: 'completed', stopped_reason: null, attempts: 1 });
      const trail = await history(w, id);
      expect(
        trail
          .filter((e: { type: string }) => e.type === 'LeadContactSkipped')
          .map((e: any) => e.data.phone_number)
          .sort(),
      ).toEqual([listed, listedPrimary]);
    });

    it('lists a number that opts out during a call, and stops its lead', async () => {
      const dial = w.provider.dials.find((d) => d.request.to === optingOut)!;
      const body = JSON.stringify({ status: 'completed', answered_by: 'human', duration: 12, opt_out: true });
      const answer = await fetch(`${w.t.url}/api/telephony/calls/${dial.request.call_id}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
        body,
      });
      expect(answer.status).toBe(200);
      const optedOut = await eventually(
        async () => {
          const found = byNumber(await leadsOf(w, dial.request.campaign_id), optingOut);
          return found.stopped_reason === 'opt-out' ? found : undefined;
        },
        10_000,
        'the lead to stop',
      );
      expect(optedOut.status).toBe('completed');
      const list = (await w.t.request('GET', `/api/user/dnc?phone_number=${encodeURIComponent(optingOut)}`, { token: w.token })).body;
      expect(list.data).toEqual([{ phone_number: optingOut, reason: null, source: 'opt-out', created_at: expect.any(String) }]);
      expect(list.total).toBe(1);
    });

    it('never dials a number listed after its lead was claimed', async () => {
      const id = (await leadsOf(w, w.provider.dials[0].request.campaign_id))[0].campaign_id;
      const late = await lead(w, id, '+12015550715');
      await w.t.request('POST', '/api/user/dnc', { token: w.token, body: { phone_numbers: ['+12015550715'] } });
      // A claim decided on a list read before the number joined it.
      const callId = await w.t.app.get<EventStore>(EVENT_STORE).nextId('call');
      expect((await w.t.app.get(CommandBus).execute(new StartLeadCall(late.id, callId, ALWAYS_OPEN, []))).claimed).toBe(true);
      const call = await eventually(
        async () => {
          const found = (await w.t.request('GET', `/api/user/calls/${callId}`, { token: w.token })).body;
          return found.status === 'failed' ? found : undefined;
        },
        10_000,
        'the call to be refused',
      );
      expect(call.status).toBe('failed');
      expect(w.provider.dials.map((d) => d.request.to)).not.toContain('+12015550715');
      // Its only number listed: the lead ends as a claim would have ended it, with no attempt used.
      const ended = await eventually(
        async () => {
          const found = byNumber(await leadsOf(w, id), '+12015550715');
          return found.status === 'completed' ? found : undefined;
        },
        10_000,
        'the lead to end',
      );
      expect(ended).toMatchObject({ id: late.id, stopped_reason: 'do-not-call', attempts: 0 });
      const skipped = (await history(w, id)).filter((e: any) => e.type === 'LeadContactSkipped' && e.data.lead_id === late.id);
      expect(skipped.map((e: any) => e.data.phone_number)).toEqual(['+12015550715']);
    });

    it('lists the numbers newest first, and removes one', async () => {
      const list = (await w.t.request('GET', '/api/user/dnc', { token: w.token })).body;
      // Newest first; the numbers of one request are each listed on their own, in no set order.
      const numbers = list.data.map((e: { phone_number: string }) => e.phone_number);
      expect(numbers.slice(0, 2)).toEqual(['+12015550715', optingOut]);
      expect(numbers.slice(2).sort()).toEqual([listed, listedPrimary].sort());
      const removed = await w.t.request('DELETE', `/api/user/dnc/${encodeURIComponent(listed)}`, { token: w.token });
      expect(removed.body).toEqual({ message: 'Number removed from the do-not-call list.' });
      expect((await w.t.request('DELETE', `/api/user/dnc/${encodeURIComponent(listed)}`, { token: w.token })).status).toBe(404);
      expect((await w.t.request('GET', '/api/user/dnc', { token: w.token })).body.total).toBe(3);
    });
  });

  describe('pacing and the failure breaker', () => {
    let w: World;
    const failing = Array.from({ length: 14 }, (_, i) => `+1201555${7300 + i}`);
    const paced = Array.from({ length: 6 }, (_, i) => `+1201555${7400 + i}`);
    // Wednesday 3 June 2026, 11:00 in New York.
    beforeAll(async () => (w = await world('2026-06-03T15:00:00Z', Object.fromEntries(failing.map((n) => [n, ['failed'] as const])) as never)));
    afterAll(async () => {
      await w.t.close();
      await w.provider.stop();
    });

    it('places at most max_calls_per_minute new calls in any rolling minute', async () => {
      const id = await campaign(w, {
        max_calls_per_minute: 3,
        max_concurrent_calls: 10,
        calling_hours: { start: '00:00', end: '24:00' },
        calling_days: EVERY_DAY,
      });
      for (const n of paced) await lead(w, id, n);
      await setStatus(w, id, 'start');
      await settled(w);
      expect(w.provider.dials.filter((d) => d.request.campaign_id === id)).toHaveLength(3);
      await advance(w, '2026-06-03T15:00:59Z');
      expect(w.provider.dials.filter((d) => d.request.campaign_id === id)).toHaveLength(3);
      await advance(w, '2026-06-03T15:01:01Z');
      expect(w.provider.dials.filter((d) => d.request.campaign_id === id)).toHaveLength(6);
    });

    it('stops a campaign whose last calls failed beyond its share, and judges again only the calls after a restart', async () => {
      const id = await campaign(w, {
        max_retries: 0,
        max_concurrent_calls: 1,
        failure_breaker: { window: 5 },
        calling_hours: { start: '00:00', end: '24:00' },
        calling_days: EVERY_DAY,
      });
      expect((await getCampaign(w, id)).failure_breaker).toEqual({ window: 5, max_failure_ratio: 0.5 });
      for (const n of failing) await lead(w, id, n);
      await setStatus(w, id, 'start');
      const stopped = await eventually(
        async () => {
          const c = await getCampaign(w, id);
          return c.status === 'stopped' ? c : undefined;
        },
        15_000,
        'the breaker to trip',
      );
      expect(stopped.stopped_reason).toBe('failure-rate');
      await settled(w);
      const firstRun = w.provider.dials.filter((d) => d.request.campaign_id === id).length;
      expect(firstRun).toBeGreaterThanOrEqual(5);
      expect(firstRun).toBeLessThanOrEqual(6);
      const trail = await history(w, id);
      expect(trail.find((e: { type: string }) => e.type === 'CampaignStopped').data).toMatchObject({ reason: 'failure-rate', failed: 5, window: 5 });

      // The user restarts it a minute later: only the calls placed since count.
      w.clock.advance(60_000);
      expect((await setStatus(w, id, 'start')).status).toBe(200);
      await eventually(async () => (await getCampaign(w, id)).status === 'stopped', 15_000, 'the breaker to trip again');
      await settled(w);
      const secondRun = w.provider.dials.filter((d) => d.request.campaign_id === id).length - firstRun;
      expect(secondRun).toBeGreaterThanOrEqual(5);
    });
  });
});
