import { mayDial, nextDialInstant } from '../shared/compliance/dial-window';
import { RetryPolicy, RoundOutcome } from './lead-policy';
import type { LeadCommand, LeadState } from './lead.state';
import { LeadEvent } from './lead.events';

type Existing = Extract<LeadState, { exists: true }>;

const idsOf = (leadId: number, state: Existing) => ({ lead_id: leadId, user_id: state.organisationId, campaign_id: state.campaignId });

/** The `created` secondary contact after `contactId` (after the primary number when null). */
function contactAfter(state: Existing, contactId: number | null) {
  const after = contactId === null ? 0 : state.contacts.findIndex((c) => c.id === contactId) + 1;
  return state.contacts.slice(after).find((c) => c.status === 'created');
}

/**
 * A round that reached nobody: one attempt used; the `1 + max_retries`-th is the last, else the
 * next round starts from the primary number after the retry delay, at its first allowed instant.
 */
function roundEnded(leadId: number, state: Existing, policy: RetryPolicy, now: Date, outcome: RoundOutcome | null): LeadEvent[] {
  const ids = idsOf(leadId, state);
  const attempts = state.attempts + 1;
  const rule = outcome === null ? undefined : policy.by_outcome?.[outcome];
  // One budget for every outcome: an outcome that is not retried ends the lead as if it were spent.
  if (attempts >= 1 + policy.max_retries || rule?.retry === false) return [{ type: 'LeadReachedMaxRetries', data: { ...ids, attempts } }];
  const retryAt = new Date(now.getTime() + (rule?.delay_seconds ?? policy.retry_delay_seconds) * 1000);
  const nextDue = nextDialInstant(policy.rules, { zones: state.zones, doNotCall: false }, retryAt) ?? retryAt;
  return [{ type: 'LeadAttemptFailed', data: { ...ids, attempts, next_due_at: nextDue.toISOString() } }];
}

/**
 * A contact on the do-not-call list passed over with no attempt used (docs/dialing.md): the next
 * `created` contact is due now; with none left the round ends, or the lead when every number is listed.
 */
function passOver(
  leadId: number,
  state: Existing,
  contactId: number | null,
  listed: ReadonlySet<string>,
  policy: RetryPolicy,
  now: Date,
): { events: LeadEvent[]; next: number | null } {
  const ids = idsOf(leadId, state);
  const phoneNumber = contactId === null ? state.phoneNumber : state.contacts.find((c) => c.id === contactId)!.phoneNumber;
  const events: LeadEvent[] = [
    { type: 'LeadContactSkipped', data: { ...ids, secondary_contact_id: contactId, phone_number: phoneNumber, reason: 'do-not-call' } },
  ];
  const next = contactAfter(state, contactId);
  if (next) {
    events.push({ type: 'LeadNextContactDue', data: { ...ids, secondary_contact_id: next.id, due_at: now.toISOString() } });
    return { events, next: next.id };
  }
  const everyNumberListed = [state.phoneNumber, ...state.contacts.map((c) => c.phoneNumber)].every((n) => n === phoneNumber || listed.has(n));
  events.push(
    ...(everyNumberListed ? [{ type: 'LeadStopped', data: { ...ids, reason: 'do-not-call' } } as const] : roundEnded(leadId, state, policy, now, null)),
  );
  return { events, next: null };
}

/** The contact may not be dialed now: its turn moves to its next allowed instant, or the lead ends when there is none. */
function deferred(leadId: number, state: Existing, contactId: number | null, policy: RetryPolicy, now: Date): LeadEvent {
  const ids = idsOf(leadId, state);
  const zones = contactId === null ? state.zones : state.contacts.find((c) => c.id === contactId)!.zones;
  const at = nextDialInstant(policy.rules, { zones, doNotCall: false }, now);
  if (at === null) return { type: 'LeadStopped', data: { ...ids, reason: 'no-timezone' } };
  return { type: 'LeadDialDeferred', data: { ...ids, secondary_contact_id: contactId, due_at: at.toISOString() } };
}

/**
 * The dialer's claim on a due lead (docs/dialing.md): a contact on the do-not-call list is passed
 * over (see `passOver`); a contact that may not be dialed now has its turn moved to its next
 * allowed instant (none: the lead ends, `no-timezone`); otherwise the call starts. Only the last
 * is a claim; the others are recorded for the audit trail.
 */
export function startCall(command: Extract<LeadCommand, { type: 'StartLeadCall' }>, state: Existing, now: Date): LeadEvent[] {
  const ids = idsOf(command.id, state);
  const listed = new Set(command.doNotCall);
  const events: LeadEvent[] = [];
  let contactId = state.nextContactId;
  for (;;) {
    const contact = contactId === null ? null : state.contacts.find((c) => c.id === contactId)!;
    const phoneNumber = contact?.phoneNumber ?? state.phoneNumber;
    const zones = contact?.zones ?? state.zones;
    if (listed.has(phoneNumber)) {
      const passed = passOver(command.id, state, contactId, listed, command.policy, now);
      events.push(...passed.events);
      if (passed.next === null) return events;
      contactId = passed.next;
      continue;
    }
    if (!mayDial(command.policy.rules, { zones, doNotCall: false }, now)) return [...events, deferred(command.id, state, contactId, command.policy, now)];
    return [
      ...events,
      {
        type: 'LeadCallStarted',
        data: { ...ids, call_id: command.callId, secondary_contact_id: contactId, phone_number: phoneNumber, attempt: state.attempts + 1 },
      },
    ];
  }
}

/**
 * A finished call ends the lead's round when it reached someone or when no `created`
 * secondary contact is left after the one just called; a round that reached nobody counts
 * as one attempt, and the `1 + max_retries`-th such round is the last. A call never dialed, its
 * number listed after the claim, passes over its contact as the claim would have.
 */
export function finishCall(command: Extract<LeadCommand, { type: 'FinishLeadCall' }>, state: LeadState, now: Date): LeadEvent[] {
  if (!state.exists || state.inFlight?.callId !== command.callId) return [];
  const contactId = state.inFlight.contactId;
  const ids = idsOf(command.id, state);
  const events: LeadEvent[] = [
    {
      type: 'LeadCallFinished',
      data: { ...ids, call_id: command.callId, secondary_contact_id: contactId, call_status: command.callStatus, reached: command.reached },
    },
  ];
  // A deleted, completed or manually closed lead keeps the record of the call and nothing more.
  if (state.deleted || state.status !== 'created') return events;
  if (command.optOut) return [...events, { type: 'LeadStopped', data: { ...ids, reason: 'opt-out' } }];
  if (command.reached) return [...events, { type: 'LeadReached', data: { ...ids, call_id: command.callId, secondary_contact_id: contactId } }];
  if (command.doNotCall) return [...events, ...passOver(command.id, state, contactId, new Set(command.doNotCall), command.policy, now).events];
  if (command.notDialed === 'held') return events;
  if (typeof command.notDialed === 'object' && command.notDialed !== null) {
    return [...events, { type: 'LeadDialDeferred', data: { ...ids, secondary_contact_id: contactId, due_at: command.notDialed.retryAt } }];
  }
  if (command.notDialed === 'outside-window') return [...events, deferred(command.id, state, contactId, command.policy, now)];
  const next = contactAfter(state, contactId);
  if (next) return [...events, { type: 'LeadNextContactDue', data: { ...ids, secondary_contact_id: next.id, due_at: now.toISOString() } }];
  return [...events, ...roundEnded(command.id, state, command.policy, now, command.outcome ?? null)];
}
