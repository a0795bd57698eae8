import { CampaignTurns } from '../../src/dialing/campaign-turns';
import { DialScheduler } from '../../src/dialing/dial-scheduler';
import { StuckCallSweeper } from '../../src/dialing/stuck-call-sweeper';
import { EVENT_STORE, EventStore, RecordedEvent } from '../../src/shared/ports/event-store.port';
import { eventually } from '../support/fake-provider';
import { EVERY_DAY, World, campaign, getCampaign, lead, leadsOf, setStatus, settled, world } from '../support/dialing-world';

/** Every lead stream alternates LeadCallStarted and LeadCallFinished: never two calls of one lead in flight. */
async function expectOneCallAtATime(w: World) {
  const store = w.t.app.get<EventStore>(EVENT_STORE);
  const all: RecordedEvent[] = await store.readAll(0, 100_000);
  const byLead = new Map<string, string[]>();
  for (const e of all.filter((e) => e.type === 'LeadCallStarted' || e.type === 'LeadCallFinished')) {
    byLead.set(e.stream, [...(byLead.get(e.stream) ?? []), e.type]);
  }
  for (const types of byLead.values()) {
    types.forEach((type, i) => expect(type).toBe(i % 2 === 0 ? 'LeadCallStarted' : 'LeadCallFinished'));
  }
  expect(w.provider.overlaps).toEqual([]);
}

describe('dialing a whole campaign through the http dialer', () => {
  let w: World;
  // Wednesday 2025-01-15 10:00 in New York.
  const start = '2025-01-15T15:00:00Z';
  const numbers = {
    human: '+12015550001',
    machineThenContact: '+12015550002',
    contactHuman: '+12015550012',
    busy: '+12015550003',
    contactNoAnswer: '+12015550013',
    refused: '+12015550004',
    silentThenHuman: '+12015550009',
    failedThenHuman: '+12015550006',
  };
  beforeAll(async () => {
    w = await world(start, {
      [numbers.human]: ['human'],
      [numbers.machineThenContact]: ['machine'],
      [numbers.contactHuman]: ['human'],
      [numbers.busy]: ['busy'],
      [numbers.contactNoAnswer]: ['no-answer'],
      [numbers.refused]: ['refuse'],
      [numbers.silentThenHuman]: ['silence', 'human'],
      [numbers.failedThenHuman]: ['failed', 'human'],
    });
  });
  afterAll(async () => {
    await w.t.close();
    await w.provider.stop();
  });

  it('dials in order within the limit, retries, fails stuck calls, and ends every lead completed or reached-max-retries', async () => {
    const id = await campaign(w, { max_retries: 1, retry_delay_seconds: 600, max_concurrent_calls: 2, calling_hours: { start: '09:00', end: '17:00' } });
    const l = {
      human: await lead(w, id, numbers.human),
      machine: await lead(w, id, numbers.machineThenContact, [numbers.contactHuman]),
      busy: await lead(w, id, numbers.busy, [numbers.contactNoAnswer]),
      refused: await lead(w, id, numbers.refused),
      silent: await lead(w, id, numbers.silentThenHuman),
      failed: await lead(w, id, numbers.failedThenHuman),
    };
    expect((await setStatus(w, id, 'start')).body.data.status).toBe('in-progress');

    // Round one: everybody once, the primary first, then the secondary contacts.
    await eventually(() => w.provider.dials.length >= 8, 15_000, 'round one');
    await settled(w);
    const firstTwo = w.provider.dials
      .slice(0, 2)
      .map((d) => d.request.lead_id)
      .sort();
    expect(firstTwo).toEqual([l.human.id, l.machine.id].sort());
    expect(w.provider.dials.map((d) => d.request.to)).toEqual(
      expect.arrayContaining([
        numbers.human,
        numbers.machineThenContact,
        numbers.contactHuman,
        numbers.busy,
        numbers.contactNoAnswer,
        numbers.refused,
        numbers.silentThenHuman,
        numbers.failedThenHuman,
      ]),
    );
    const contactDial = w.provider.dials.find((d) => d.request.to === numbers.contactHuman)!;
    const primaryDial = w.provider.dials.find((d) => d.request.to === numbers.machineThenContact)!;
    expect(contactDial.receivedAt).toBeGreaterThanOrEqual(primaryDial.endedAt!);
    expect(contactDial.request).toMatchObject({
      lead_id: l.machine.id,
      secondary_contact_id: l.machine.secondary_contacts[0].id,
      campaign_id: id,
      assistant: { name: 'Ada' },
    });
    expect(w.provider.dials.length).toBe(8);
    let leads = await leadsOf(w, id);
    const statusOf = (x: { id: number }) => leads.find((y: { id: number }) => y.id === x.id);
    expect(statusOf(l.human).status).toBe('completed');
    expect(statusOf(l.machine)).toMatchObject({ status: 'completed', secondary_contacts: [{ status: 'completed' }] });
    expect(statusOf(l.busy)).toMatchObject({ status: 'created', attempts: 1, secondary_contacts: [{ status: 'created' }] });
    // docs/dialing.md: the next round is due a retry delay after the round ended.
    const dueIn = Date.parse(statusOf(l.busy).next_attempt_at) - w.clock.now().getTime();
    expect(dueIn).toBeGreaterThan(590_000);
    expect(dueIn).toBeLessThanOrEqual(600_000);
    // The silent call is still open: its lead waits.
    expect((await getCampaign(w, id)).stats.calls_in_flight).toBe(1);

    // 20 s of max_call_duration + 120 s later the silent call is failed.
    w.clock.advance(141_000);
    await w.t.app.get(StuckCallSweeper).sweepOnce();
    const silentCall = w.provider.dials.find((d) => d.request.to === numbers.silentThenHuman)!.request.call_id;
    await eventually(
      async () => (await w.t.request('GET', `/api/user/calls/${silentCall}`, { token: w.token })).body.status === 'failed',
      5000,
      'stuck call failed',
    );
    await settled(w);
    expect(w.provider.dials.length).toBe(8);

    // The retry delay passes: round two for everybody not reached.
    w.clock.advance(600_000);
    w.t.app.get(DialScheduler).nudge();
    await eventually(async () => (await getCampaign(w, id)).status === 'completed', 15_000, 'campaign completed');
    leads = await leadsOf(w, id);
    expect(statusOf(l.busy)).toMatchObject({
      status: 'reached-max-retries',
      attempts: 2,
      next_attempt_at: null,
      secondary_contacts: [{ status: 'reached-max-retries' }],
    });
    expect(statusOf(l.refused).status).toBe('reached-max-retries');
    expect(statusOf(l.silent).status).toBe('completed');
    expect(statusOf(l.failed).status).toBe('completed');
    expect(w.provider.dials.length).toBe(8 + 5);
    expect(w.provider.dials.filter((d) => d.request.to === numbers.busy)).toHaveLength(2);
    expect(w.provider.maxOpen.get(id)).toBeLessThanOrEqual(2);
    expect(w.provider.badSignatures).toEqual([]);
    await expectOneCallAtATime(w);

    const calls = (await w.t.request('GET', `/api/user/calls?campaign_id=${id}&per_page=100`, { token: w.token })).body;
    expect(calls.total).toBe(13);
    expect(calls.data.filter((c: { status: string }) => c.status === 'failed')).toHaveLength(4);
    expect(calls.data[0]).toMatchObject({ campaign_name: 'Dialing', type: 'outbound', assistant_name: 'Ada' });
    expect((await getCampaign(w, id)).stats).toEqual({ leads: { created: 0, completed: 4, 'reached-max-retries': 2 }, calls_in_flight: 0 });
  }, 60_000);
});

describe('the calling window, with a controlled clock', () => {
  let w: World;
  beforeAll(async () => {
    // Friday 2025-01-17 17:30 in New York: the window has just closed.
    w = await world('2025-01-17T22:30:00Z', { '+12015550100': ['no-answer'] }, { DIAL_INTERVAL_MS: '3600000' });
  });
  afterAll(async () => {
    await w.t.close();
    await w.provider.stop();
  });
  const pass = () => w.t.app.get(DialScheduler).pass();
  /** The lead's claims so far. */
  const claimsOf = async (leadId: number) =>
    (await w.t.app.get<EventStore>(EVENT_STORE).readStream(`lead-${leadId}`)).filter((e) => e.type === 'LeadCallStarted').length;
  /**
   * A pass at this instant claims the lead: this one, or the scheduler's own pass running beside it
   * (a call's end nudges it), which the claim's append lets only one of them make.
   */
  const claimedNow = async (leadId: number, claims: number) => {
    await pass();
    await eventually(async () => (await claimsOf(leadId)) === claims, 5000, `claim ${claims} of lead ${leadId}`);
  };

  it('waits for the local opening of the next calling day, skipping the weekend, then pushes a retry to the next morning', async () => {
    const id = await campaign(w, { max_retries: 1, retry_delay_seconds: 600 });
    const { id: leadId } = await lead(w, id, '+12015550100');
    await setStatus(w, id, 'start');
    expect(await pass()).toBe(0);
    w.clock.set('2025-01-18T15:00:00Z'); // Saturday 10:00
    expect(await pass()).toBe(0);
    w.clock.set('2025-01-20T13:59:00Z'); // Monday 08:59
    expect(await pass()).toBe(0);
    expect(w.provider.dials).toHaveLength(0);
    w.clock.set('2025-01-20T21:55:00Z'); // Monday 16:55
    await claimedNow(leadId, 1);
    await eventually(
      // The claim shows on the read models a moment after the pass: the attempt is over once it is counted.
      async () => (await leadsOf(w, id))[0]?.attempts === 1 && (await getCampaign(w, id)).stats.calls_in_flight === 0,
      5000,
      'first attempt over',
    );
    const failed = (await w.t.app.get<EventStore>(EVENT_STORE).readStream(`lead-${(await leadsOf(w, id))[0].id}`)).find((e) => e.type === 'LeadAttemptFailed');
    // 16:55 + 10 minutes is past 17:00: the retry opens Tuesday 09:00 New York time.
    expect(failed?.data).toMatchObject({ attempts: 1, next_due_at: '2025-01-21T14:00:00.000Z' });
    w.clock.set('2025-01-21T13:59:59Z');
    expect(await pass()).toBe(0);
    expect(await claimsOf(leadId)).toBe(1);
    w.clock.set('2025-01-21T14:00:00Z');
    await claimedNow(leadId, 2);
  });

  /** A campaign of one lead in a zone: nothing is dialed at `closed`, the lead is dialed at `opens`. */
  const expectOpening = async (settings: object, timezone: string, phone: string, closed: string, opens: string) => {
    const id = await campaign(w, { calling_days: EVERY_DAY, ...settings }, { timezone });
    const { id: leadId } = await lead(w, id, phone);
    await setStatus(w, id, 'start');
    w.clock.set(closed);
    expect(await pass()).toBe(0);
    expect(await claimsOf(leadId)).toBe(0);
    w.clock.set(opens);
    await claimedNow(leadId, 1);
    await setStatus(w, id, 'stop');
  };

  it("follows the assistant's timezone across a DST change: Berlin 09:00 is 08:00Z before and 07:00Z after spring-forward", async () => {
    const nineToTen = { calling_hours: { start: '09:00', end: '10:00' } };
    // Saturday 08:30 CET, then 09:00 CET.
    await expectOpening(nineToTen, 'Europe/Berlin', '+12015550201', '2025-03-29T07:30:00Z', '2025-03-29T08:00:00Z');
    // Sunday 08:59 CEST, then 09:00 CEST.
    await expectOpening(nineToTen, 'Europe/Berlin', '+12015550202', '2025-03-30T06:59:00Z', '2025-03-30T07:00:00Z');
  });

  it("dials in Kolkata's half-hour offset and up to a window ending at 24:00", async () => {
    // 19:59 IST, then 23:59:59 IST.
    await expectOpening({ calling_hours: { start: '20:00', end: '24:00' } }, 'Asia/Kolkata', '+12015550301', '2025-04-01T14:29:00Z', '2025-04-01T18:29:59Z');
  });

  it("asks the turns for each pass's serving order (docs/dialing.md), and tells them which campaigns claimed", async () => {
    const next = jest.spyOn(CampaignTurns.prototype, 'next');
    const claimed = jest.spyOn(CampaignTurns.prototype, 'claimed');
    try {
      w.clock.set('2025-04-02T12:00:00Z');
      const open = await campaign(w, { calling_days: EVERY_DAY, calling_hours: { start: '00:00', end: '24:00' } }, { timezone: 'UTC' });
      const closed = await campaign(w, { calling_days: EVERY_DAY, calling_hours: { start: '20:00', end: '21:00' } }, { timezone: 'UTC' });
      const { id: leadId } = await lead(w, open, '+12015550401');
      await lead(w, closed, '+12015550402');
      for (const id of [open, closed]) await setStatus(w, id, 'start');
      next.mockClear();
      claimed.mockClear();
      await claimedNow(leadId, 1);
      const served = next.mock.calls.map(([running]) => running.map((c) => c.id));
      expect(served.some((ids) => ids.includes(open) && ids.includes(closed))).toBe(true);
      expect(claimed).toHaveBeenCalledWith(open);
      expect(claimed).not.toHaveBeenCalledWith(closed);
      for (const id of [open, closed]) await setStatus(w, id, 'stop');
    } finally {
      next.mockRestore();
      claimed.mockRestore();
    }
  });
});

describe('stopping a campaign', () => {
  let w: World;
  beforeAll(async () => {
    w = await world('2025-01-15T15:00:00Z', {}, {}, 300);
  });
  afterAll(async () => {
    await w.t.close();
    await w.provider.stop();
  });

  it('halts new dials at once while the call in flight finishes and is recorded; a new start goes on', async () => {
    const id = await campaign(w, { max_concurrent_calls: 1, calling_days: EVERY_DAY, calling_hours: { start: '00:00', end: '24:00' } });
    for (const n of ['+12015550401', '+12015550402', '+12015550403']) await lead(w, id, n);
    await setStatus(w, id, 'start');
    await eventually(() => w.provider.dials.length === 1, 5000, 'first dial');
    expect((await setStatus(w, id, 'stop')).body.data.status).toBe('stopped');
    const first = w.provider.dials[0].request.call_id;
    await eventually(
      async () => (await w.t.request('GET', `/api/user/calls/${first}`, { token: w.token })).body.status === 'completed',
      5000,
      'call in flight recorded',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(w.provider.dials).toHaveLength(1);
    expect((await getCampaign(w, id)).stats).toEqual({ leads: { created: 2, completed: 1, 'reached-max-retries': 0 }, calls_in_flight: 0 });
    await setStatus(w, id, 'start');
    await eventually(async () => (await getCampaign(w, id)).status === 'completed', 10_000, 'campaign completed');
    expect(w.provider.dials).toHaveLength(3);
  }, 30_000);
});
