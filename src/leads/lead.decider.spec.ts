import { fold } from '../shared/event-sourcing/decider';
import { deciderSpec } from '../testing/decider-spec';
import { DUPLICATE_MESSAGE, INVALID_CAMPAIGN, LeadCommand, NOT_DUE_MESSAGE, RetryPolicy, TOO_MANY_VARIABLES, isDue, leadDecider } from './lead.decider';
import { refusalOf } from '../testing/refusal';
import { LeadEvent } from './lead.events';
import { LeadNotDialed } from './lead.state';
import { ALWAYS_OPEN } from '../testing/dial-policy.fixture';
import { LEAD_IDS, leadCreated } from '../testing/lead.fixture';

const NOW = new Date('2025-01-01T00:00:00Z');
const { given } = deciderSpec(leadDecider, NOW);
const ids = LEAD_IDS;
const created: LeadEvent = leadCreated({ variables: { customer_name: 'Ann' } });
const createCommand = (duplicate: boolean, allowDuplicate: boolean, more: object = {}): LeadCommand => ({
  type: 'CreateLead',
  id: 1,
  organisationId: 2,
  campaignId: 3,
  phoneNumber: '+12015550123',
  variables: { customer_name: 'Ann' },
  contacts: [{ id: 10, phoneNumber: '+12015550124', variables: {}, timezone: null, zones: ['America/New_York'] }],
  timezone: null,
  zones: ['America/New_York'],
  campaignOwned: true,
  duplicate,
  allowDuplicate,
  inputErrors: {},
  ...more,
});
const update = (changes: object, organisationId = 2): LeadCommand => ({ type: 'UpdateLead', id: 1, organisationId, changes });

describe('lead decider', () => {
  it('refuses a merge that takes the stored variables past 100 keys, counting each name once', () => {
    const fifty = (from: number) => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${from + i}`, i]));
    const merged: LeadEvent = { type: 'LeadVariablesMerged', data: { ...ids, variables: fifty(0) } };
    // Created with customer_name, merged 50: 51 names; 49 more reach 100, 50 more pass it.
    expect(refusalOf(given([created, merged]).when(update({ variables: fifty(50) })))).toEqual({
      message: 'Validation failed',
      errors: { variables: [TOO_MANY_VARIABLES] },
    });
    const upTo100 = { ...fifty(50), k0: 'again' };
    delete (upTo100 as Record<string, unknown>).k99;
    expect(given([created, merged]).when(update({ variables: upTo100 }))()).toHaveLength(1);
  });

  it('creates a lead and its secondary contacts, all created', () => {
    given([]).when(createCommand(false, false)).then([created]);
    expect(fold(leadDecider, [created])).toMatchObject({ status: 'created', attempts: 0, contacts: [{ id: 10, status: 'created' }] });
  });

  it('refuses a duplicate number in the campaign unless duplicates are allowed', () => {
    expect(given([]).when(createCommand(true, false))).toThrow(DUPLICATE_MESSAGE);
    given([]).when(createCommand(true, true)).then([created]);
  });

  it("refuses a campaign that is not the user's, its message on top", () => {
    expect(refusalOf(given([]).when(createCommand(false, false, { campaignOwned: false })))).toEqual({
      message: INVALID_CAMPAIGN,
      errors: { campaign_id: [INVALID_CAMPAIGN] },
    });
  });

  it("answers the request's own field errors with those it finds, the first message on top", () => {
    const variables = ['The variables field must be an array.'];
    const refusal = refusalOf(given([]).when(createCommand(true, false, { campaignOwned: true, inputErrors: { variables } })));
    expect(refusal).toEqual({ message: variables[0], errors: { variables, phone_number: [DUPLICATE_MESSAGE] } });
    const phone = ['The phone number field must be a valid phone number in E.164 format.'];
    expect(refusalOf(given([]).when(createCommand(false, false, { campaignOwned: false, inputErrors: { phone_number: phone } })))).toEqual({
      message: phone[0],
      errors: { phone_number: phone, campaign_id: [INVALID_CAMPAIGN] },
    });
    expect(given([]).when(createCommand(false, false, { inputErrors: { variables } }))).toThrow(variables[0]);
  });

  it('merges variables, moves campaign and changes the number as separate facts', () => {
    const events = given([created]).when(update({ variables: { email: 'a@b.c' }, campaignId: 4, phoneNumber: '+12015550199' }))();
    expect(events.map((e) => e.type)).toEqual(['LeadMovedToCampaign', 'LeadPhoneNumberChanged', 'LeadVariablesMerged']);
    expect(events[0].data).toMatchObject({ campaign_id: 4, from_campaign_id: 3 });
    expect(events[2].data).toMatchObject({ campaign_id: 4, variables: { email: 'a@b.c' } });
  });

  it('refuses the status the dialer alone assigns', () => {
    expect(given([created]).when(update({ status: 'reached-max-retries' }))).toThrow('Validation failed');
  });

  it('completes a lead by hand, and re-queues it with created', () => {
    const completed = given([created]).when(update({ status: 'completed' }))();
    expect(completed).toEqual([{ type: 'LeadStatusChanged', data: { ...ids, from: 'created', to: 'completed' } }]);
    const requeued = given([created, ...completed]).when(update({ status: 'created' }))();
    expect(requeued).toEqual([{ type: 'LeadRequeued', data: ids }]);
    expect(fold(leadDecider, [created, ...completed, ...requeued])).toMatchObject({ status: 'created', attempts: 0 });
    given([created])
      .when(update({ status: 'created' }))
      .then([]);
  });

  it('treats a deleted or foreign lead as not found', () => {
    expect(given([created]).when(update({}, 9))).toThrow('Lead not found');
    const deleted = given([created]).when({ type: 'DeleteLead', id: 1, organisationId: 2 })();
    expect(deleted).toEqual([{ type: 'LeadDeleted', data: ids }]);
    expect(given([created, ...deleted]).when(update({ status: 'completed' }))).toThrow('Lead not found');
  });

  describe('dialing', () => {
    // Wednesday 2025-01-01 00:00 UTC; a window open around the clock every day, so retries are not moved.
    const policy: RetryPolicy = { ...ALWAYS_OPEN, max_retries: 1 };
    const twoContacts: LeadEvent = {
      type: 'LeadCreated',
      data: {
        ...ids,
        phone_number: '+12015550123',
        variables: {},
        secondary_contacts: [
          { id: 10, phone_number: '+12015550124', variables: {} },
          { id: 11, phone_number: '+12015550125', variables: {} },
        ],
      },
    };
    const start = (callId: number, doNotCall: string[] = [], p = policy): LeadCommand => ({ type: 'StartLeadCall', id: 1, callId, policy: p, doNotCall });
    const finish = (callId: number, reached: boolean, p = policy): LeadCommand => ({
      type: 'FinishLeadCall',
      id: 1,
      callId,
      callStatus: reached ? 'completed' : 'no-answer',
      reached,
      policy: p,
    });
    /** Plays a whole exchange: each call is claimed then finished, the events piling up. */
    const play = (history: LeadEvent[], outcomes: boolean[], p = policy, now = NOW) => {
      let events = [...history];
      outcomes.forEach((reached, i) => {
        events = [...events, ...given(events, now).when(start(100 + i))()];
        events = [...events, ...given(events, now).when(finish(100 + i, reached, p))()];
      });
      return events;
    };

    it('claims a due lead for its primary number, and no second call while one is in flight', () => {
      const claim = given([twoContacts]).when(start(100))();
      expect(claim).toEqual([
        { type: 'LeadCallStarted', data: { ...ids, call_id: 100, secondary_contact_id: null, phone_number: '+12015550123', attempt: 1 } },
      ]);
      expect(given([twoContacts, ...claim]).when(start(101))).toThrow(NOT_DUE_MESSAGE);
    });

    it('completes the lead and the primary when the primary is reached', () => {
      const events = play([twoContacts], [true]);
      expect(events.at(-1)).toEqual({ type: 'LeadReached', data: { ...ids, call_id: 100, secondary_contact_id: null } });
      expect(fold(leadDecider, events)).toMatchObject({ status: 'completed', inFlight: null, contacts: [{ status: 'created' }, { status: 'created' }] });
    });

    it('goes on to each created secondary contact in order within the round, stopping at the first reached', () => {
      const events = play([twoContacts], [false, true]);
      const started = events.filter((e) => e.type === 'LeadCallStarted').map((e) => e.data);
      expect(started.map((d: any) => [d.secondary_contact_id, d.phone_number, d.attempt])).toEqual([
        [null, '+12015550123', 1],
        [10, '+12015550124', 1],
      ]);
      expect(fold(leadDecider, events)).toMatchObject({
        status: 'completed',
        attempts: 0,
        contacts: [
          { id: 10, status: 'completed' },
          { id: 11, status: 'created' },
        ],
      });
    });

    it('counts a round with nobody reached as one attempt and makes the next round due after the delay', () => {
      const events = play([twoContacts], [false, false, false]);
      expect(events.at(-1)).toEqual({ type: 'LeadAttemptFailed', data: { ...ids, attempts: 1, next_due_at: '2025-01-01T01:00:00.000Z' } });
      const state = fold(leadDecider, events);
      expect(state).toMatchObject({ status: 'created', attempts: 1, nextContactId: null });
      expect(isDue(state, NOW)).toBe(false);
      expect(isDue(state, new Date('2025-01-01T01:00:00Z'))).toBe(true);
      expect(given(events).when(start(200))).toThrow(NOT_DUE_MESSAGE);
    });

    it('marks the lead and its open contacts reached-max-retries after 1 + max_retries rounds', () => {
      const later = new Date('2025-01-02T00:00:00Z');
      const events = play(play([twoContacts], [false, false, false]), [false, false, false], policy, later);
      expect(events.at(-1)).toEqual({ type: 'LeadReachedMaxRetries', data: { ...ids, attempts: 2 } });
      expect(fold(leadDecider, events)).toMatchObject({
        status: 'reached-max-retries',
        contacts: [{ status: 'reached-max-retries' }, { status: 'reached-max-retries' }],
      });
      expect(play([created], [false, false], { ...policy, max_retries: 0 }).at(-1)?.type).toBe('LeadReachedMaxRetries');
    });

    it('moves a retry that falls outside the calling window to the next opening', () => {
      const office = { ...policy, rules: { ...policy.rules, calling_hours: { start: '09:00', end: '17:00' } } };
      const events = play([created], [false, false], office, new Date('2025-01-01T16:30:00Z'));
      expect(events.at(-1)).toMatchObject({ type: 'LeadAttemptFailed', data: { next_due_at: '2025-01-02T09:00:00.000Z' } });
    });

    describe("retried by outcome, all outcomes sharing one budget (docs/dialing.md's retry_policy)", () => {
      const noContacts: LeadEvent = {
        type: 'LeadCreated',
        data: { ...ids, phone_number: '+12015550123', zones: ['America/New_York'], variables: {}, secondary_contacts: [] },
      };
      const byOutcome: RetryPolicy = { ...policy, max_retries: 2, by_outcome: { busy: { retry: true, delay_seconds: 60 }, machine: { retry: false } } };
      const round = (events: LeadEvent[], callId: number, outcome: 'busy' | 'no-answer' | 'machine' | 'failed', at = NOW) => {
        const claimed = [...events, ...given(events, at).when(start(callId, [], byOutcome))()];
        const finished: LeadCommand = { type: 'FinishLeadCall', id: 1, callId, callStatus: outcome, reached: false, policy: byOutcome, outcome };
        return [...claimed, ...given(claimed, at).when(finished)()];
      };

      it('retries a busy line after its own delay, and any other outcome after the campaign’s', () => {
        expect(round([noContacts], 100, 'busy').at(-1)).toMatchObject({ type: 'LeadAttemptFailed', data: { next_due_at: '2025-01-01T00:01:00.000Z' } });
        expect(round([noContacts], 100, 'no-answer').at(-1)).toMatchObject({ type: 'LeadAttemptFailed', data: { next_due_at: '2025-01-01T01:00:00.000Z' } });
      });

      it('ends the lead at once on an outcome that is not retried', () => {
        expect(round([noContacts], 100, 'machine').at(-1)).toEqual({ type: 'LeadReachedMaxRetries', data: { ...ids, attempts: 1 } });
      });

      it('spends one budget of 1 + max_retries rounds whatever the outcomes', () => {
        const later = (hours: number) => new Date(NOW.getTime() + hours * 3600_000);
        let events = round([noContacts], 100, 'busy');
        events = round(events, 101, 'no-answer', later(1));
        events = round(events, 102, 'busy', later(3));
        expect(events.at(-1)).toEqual({ type: 'LeadReachedMaxRetries', data: { ...ids, attempts: 3 } });
      });
    });

    describe('held to the compliance rules (docs/dialing.md)', () => {
      const byLead = { ...policy, rules: { ...policy.rules, window_timezone: 'lead' as const, calling_hours: { start: '09:00', end: '17:00' } } };
      const berlin: LeadEvent = {
        type: 'LeadCreated',
        data: {
          ...ids,
          phone_number: '+4930123456',
          zones: ['Europe/Berlin'],
          variables: {},
          secondary_contacts: [{ id: 10, phone_number: '+4930123457', variables: {} }],
        },
      };

      it("moves the lead's turn to its next window when its contact may not be dialed now, and claims nothing", () => {
        // 00:00 UTC is 01:00 in Berlin: the window opens at 09:00 there, 08:00 UTC.
        given([berlin])
          .when(start(100, [], byLead))
          .then([{ type: 'LeadDialDeferred', data: { ...ids, secondary_contact_id: null, due_at: '2025-01-01T08:00:00.000Z' } }]);
        expect(isDue(fold(leadDecider, [berlin, ...given([berlin]).when(start(100, [], byLead))()]), NOW)).toBe(false);
      });

      it('ends a lead whose number has no zone under a window read in the lead’s time', () => {
        const nowhere: LeadEvent = { type: 'LeadCreated', data: { ...ids, phone_number: '+12015550123', zones: [], variables: {}, secondary_contacts: [] } };
        given([nowhere])
          .when(start(100, [], byLead))
          .then([{ type: 'LeadStopped', data: { ...ids, reason: 'no-timezone' } }]);
      });

      it('passes over a listed number to the next contact without using an attempt', () => {
        given([created])
          .when(start(100, ['+12015550123']))
          .then([
            { type: 'LeadContactSkipped', data: { ...ids, secondary_contact_id: null, phone_number: '+12015550123', reason: 'do-not-call' } },
            { type: 'LeadNextContactDue', data: { ...ids, secondary_contact_id: 10, due_at: NOW.toISOString() } },
            { type: 'LeadCallStarted', data: { ...ids, call_id: 100, secondary_contact_id: 10, phone_number: '+12015550124', attempt: 1 } },
          ]);
      });

      it('ends the lead, never dialed, when every one of its numbers is listed', () => {
        const events = given([created]).when(start(100, ['+12015550123', '+12015550124']))();
        expect(events.map((e) => e.type)).toEqual(['LeadContactSkipped', 'LeadNextContactDue', 'LeadContactSkipped', 'LeadStopped']);
        expect(events.at(-1)).toEqual({ type: 'LeadStopped', data: { ...ids, reason: 'do-not-call' } });
        expect(fold(leadDecider, [created, ...events])).toMatchObject({ status: 'completed', attempts: 0 });
      });

      it('ends the lead on an opt-out, even on a call that reached it', () => {
        const claimed = given([created]).when(start(100))();
        const optOut: LeadCommand = { type: 'FinishLeadCall', id: 1, callId: 100, callStatus: 'completed', reached: true, policy, optOut: true };
        expect(
          given([created, ...claimed])
            .when(optOut)()
            .map((e) => e.type),
        ).toEqual(['LeadCallFinished', 'LeadStopped']);
        expect(
          given([created, ...claimed])
            .when(optOut)()
            .at(-1),
        ).toEqual({ type: 'LeadStopped', data: { ...ids, reason: 'opt-out' } });
      });

      describe('a call never dialed, its number listed after the claim', () => {
        const notDialed = (doNotCall: string[], callId = 100): LeadCommand => ({
          type: 'FinishLeadCall',
          id: 1,
          callId,
          callStatus: 'failed',
          reached: false,
          policy,
          outcome: 'failed',
          doNotCall,
        });
        const claimed = given([created]).when(start(100))();

        it('passes over its contact to the next one, with no attempt used', () => {
          const events = given([created, ...claimed]).when(notDialed(['+12015550123']))();
          expect(events.slice(1)).toEqual([
            { type: 'LeadContactSkipped', data: { ...ids, secondary_contact_id: null, phone_number: '+12015550123', reason: 'do-not-call' } },
            { type: 'LeadNextContactDue', data: { ...ids, secondary_contact_id: 10, due_at: NOW.toISOString() } },
          ]);
          expect(fold(leadDecider, [created, ...claimed, ...events])).toMatchObject({ status: 'created', attempts: 0, nextContactId: 10 });
        });

        it('ends the lead when every number is listed, the one not dialed counted listed even if taken off since', () => {
          const events = given([created, ...claimed]).when(notDialed(['+12015550124']))();
          expect(events.map((e) => e.type)).toEqual(['LeadCallFinished', 'LeadContactSkipped', 'LeadNextContactDue']);
          const onSecond = [created, ...claimed, ...events, ...given([created, ...claimed, ...events]).when(start(101))()];
          // +12015550124, not dialed, was taken off the list before the lead heard of it.
          const last = given(onSecond).when(notDialed(['+12015550123'], 101))();
          expect(last.at(-1)).toEqual({ type: 'LeadStopped', data: { ...ids, reason: 'do-not-call' } });
          expect(fold(leadDecider, [...onSecond, ...last])).toMatchObject({ status: 'completed', attempts: 0 });
        });
      });

      describe('a call never dialed for a reason found just before the dial (docs/dialing.md)', () => {
        const notDialed = (reason: LeadNotDialed, p = policy): LeadCommand => ({
          type: 'FinishLeadCall',
          id: 1,
          callId: 100,
          callStatus: 'failed',
          reached: false,
          policy: p,
          outcome: 'failed',
          notDialed: reason,
        });

        it("moves its contact's turn to the next allowed instant when the window closed, with no attempt used", () => {
          const claimed = given([berlin], new Date('2025-01-01T09:00:00Z')).when(start(100, [], byLead))();
          expect(claimed.map((e) => e.type)).toEqual(['LeadCallStarted']);
          // 17:30 in Berlin: the window closed while the dial waited; it opens again at 09:00 the next day.
          const events = given([berlin, ...claimed], new Date('2025-01-01T16:30:00Z')).when(notDialed('outside-window', byLead))();
          expect(events.slice(1)).toEqual([{ type: 'LeadDialDeferred', data: { ...ids, secondary_contact_id: null, due_at: '2025-01-02T08:00:00.000Z' } }]);
          expect(fold(leadDecider, [berlin, ...claimed, ...events])).toMatchObject({ status: 'created', attempts: 0, inFlight: null });
        });

        it('leaves the lead as it was, its turn kept, when the campaign or the lead no longer wanted the call', () => {
          const claimed = given([twoContacts]).when(start(100))();
          const events = given([twoContacts, ...claimed]).when(notDialed('held'))();
          expect(events.map((e) => e.type)).toEqual(['LeadCallFinished']);
          const state = fold(leadDecider, [twoContacts, ...claimed, ...events]);
          expect(state).toMatchObject({ status: 'created', attempts: 0, nextContactId: null, inFlight: null });
          expect(isDue(state, NOW)).toBe(true);
        });

        it('gives the same contact its turn again when the runtime said to, with no attempt used, when it was at capacity (docs/real-calls.md)', () => {
          const claimed = given([twoContacts]).when(start(100))();
          const retryAt = new Date(NOW.getTime() + 60_000).toISOString();
          const events = given([twoContacts, ...claimed]).when(notDialed({ retryAt }))();
          expect(events.slice(1)).toEqual([{ type: 'LeadDialDeferred', data: { ...ids, secondary_contact_id: null, due_at: retryAt } }]);
          const state = fold(leadDecider, [twoContacts, ...claimed, ...events]);
          expect(state).toMatchObject({ status: 'created', attempts: 0, nextContactId: null, inFlight: null });
          expect(isDue(state, NOW)).toBe(false);
          expect(isDue(state, new Date(NOW.getTime() + 60_000))).toBe(true);
        });
      });

      it('ends the round as not reached when the last contact is listed after the primary was called', () => {
        const first = given([created]).when(start(100))();
        const finished = given([created, ...first]).when(finish(100, false))();
        const events = given([created, ...first, ...finished]).when(start(101, ['+12015550124']))();
        expect(events.map((e) => e.type)).toEqual(['LeadContactSkipped', 'LeadAttemptFailed']);
      });
    });

    it('ignores a result for a call that is not the one in flight, and a repeated result', () => {
      const claim = given([twoContacts]).when(start(100))();
      given([twoContacts, ...claim])
        .when(finish(999, true))
        .then([]);
      const done = given([twoContacts, ...claim]).when(finish(100, true))();
      given([twoContacts, ...claim, ...done])
        .when(finish(100, true))
        .then([]);
    });

    it('records the call of a lead completed by hand or deleted meanwhile, and dials it no more', () => {
      const claim = given([twoContacts]).when(start(100))();
      const closed: LeadEvent = { type: 'LeadStatusChanged', data: { ...ids, from: 'created', to: 'completed' } };
      expect(
        given([twoContacts, ...claim, closed])
          .when(finish(100, false))()
          .map((e) => e.type),
      ).toEqual(['LeadCallFinished']);
      const deleted: LeadEvent = { type: 'LeadDeleted', data: ids };
      const events = [twoContacts, ...claim, deleted, ...given([twoContacts, ...claim, deleted]).when(finish(100, false))()];
      expect(events.at(-1)?.type).toBe('LeadCallFinished');
      expect(given(events).when(start(101))).toThrow(NOT_DUE_MESSAGE);
    });

    it('re-queues a finished lead: attempts back to 0, contacts created, due again from the primary', () => {
      const exhausted = play([twoContacts], [false, false, false], { ...policy, max_retries: 0 });
      const requeued = given(exhausted).when(update({ status: 'created' }))();
      expect(requeued).toEqual([{ type: 'LeadRequeued', data: ids }]);
      const state = fold(leadDecider, [...exhausted, ...requeued]);
      expect(state).toMatchObject({ status: 'created', attempts: 0, nextContactId: null, contacts: [{ status: 'created' }, { status: 'created' }] });
      expect(isDue(state, NOW)).toBe(true);
    });
  });
});
