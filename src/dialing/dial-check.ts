import { NotDialedReason } from '../calls/call.events';
import { LeadState, RetryPolicy } from '../leads/lead.decider';
import { mayDial } from '../shared/compliance/dial-window';

/** What a dial about to leave is checked against (docs/dialing.md), each read just before it. */
export interface DialFacts {
  callId: number;
  /** The campaign the call was claimed for, and its status now (null: gone). */
  campaignId: number;
  campaignStatus: string | null;
  /** The campaign's rules now; null when they cannot be read (its assistant gone). */
  policy: RetryPolicy | null;
  /** The lead as its stream has it now. */
  lead: LeadState;
  /** The number the call would ring, and whether it is on the user's do-not-call list now. */
  number: string;
  numberListed: boolean;
}

/**
 * The last check before a dial leaves (docs/dialing.md): null when it may go, else why it may not.
 * The claim judged the same rules with the same `mayDial`; what changed since (a stop, a window
 * closing while the dial waited, a do-not-call entry, a deleted lead) is caught here.
 */
export function dialRefusal(facts: DialFacts, now: Date): NotDialedReason | null {
  // A listed number is passed over whatever else holds: it would be refused at every later claim too.
  if (facts.numberListed) return 'do-not-call';
  if (facts.campaignStatus !== 'in-progress' || !facts.policy) return 'campaign-not-running';
  const { lead } = facts;
  if (!lead.exists || lead.deleted || lead.status !== 'created' || lead.campaignId !== facts.campaignId || lead.inFlight?.callId !== facts.callId) {
    return 'lead-not-live';
  }
  const contactId = lead.inFlight.contactId;
  const zones = contactId === null ? lead.zones : (lead.contacts.find((c) => c.id === contactId)?.zones ?? []);
  return mayDial(facts.policy.rules, { zones, doNotCall: false }, now) ? null : 'outside-window';
}

/** How a refusal reads in the call's history. */
export const NOT_DIALED_REASONS: Record<NotDialedReason, string> = {
  'do-not-call': 'not dialed: the number is on the do-not-call list',
  'outside-window': 'not dialed: outside the calling window, quiet hours or on a holiday when the dial was due to leave',
  'campaign-not-running': 'not dialed: the campaign was no longer in progress when the dial was due to leave',
  'lead-not-live': 'not dialed: the lead no longer waited for this call when the dial was due to leave',
  'runtime-at-capacity': 'not dialed: the voice runtime was at its concurrency limit',
};
