import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

export const leadStream = (id: number) => `lead-${id}`;

export type LeadStatus = 'created' | 'completed' | 'reached-max-retries';
export const LEAD_STATUSES: readonly LeadStatus[] = ['created', 'completed', 'reached-max-retries'];
export type Variables = Record<string, string | number | boolean | null>;

/** Every lead event names its user and campaign, so a replay can place it without other streams. */
type Ids = { lead_id: number; user_id: number; campaign_id: number };

/**
 * Where a number rings (docs/dialing.md): `timezone` as the user gave it, else null; `zones` the
 * zones dialing reads, the given one or those of the number, fixed when recorded. Both are
 * absent in events recorded before them (the number's zones are read then).
 */
export interface NumberZones {
  timezone?: string | null;
  zones?: string[];
}

export interface SecondaryContactSpec extends NumberZones {
  id: number;
  phone_number: string;
  variables: Variables;
}

export type LeadCreated = DomainEvent<
  'LeadCreated',
  Ids & NumberZones & { phone_number: string; variables: Variables; secondary_contacts: SecondaryContactSpec[] }
>;
export type LeadVariablesMerged = DomainEvent<'LeadVariablesMerged', Ids & { variables: Variables }>;
export type LeadPhoneNumberChanged = DomainEvent<'LeadPhoneNumberChanged', Ids & { phone_number: string; zones?: string[] }>;
export type LeadMovedToCampaign = DomainEvent<'LeadMovedToCampaign', Ids & { from_campaign_id: number }>;
/** A manual change of status by the owner (only `completed`; `created` is a re-queue). */
export type LeadStatusChanged = DomainEvent<'LeadStatusChanged', Ids & { from: LeadStatus; to: LeadStatus }>;
/** Back to `created`: attempts start again from 0 and every secondary contact is `created` again. */
export type LeadRequeued = DomainEvent<'LeadRequeued', Ids>;
export type LeadDeleted = DomainEvent<'LeadDeleted', Ids>;

/** The dialer claimed the lead for a call: appended with the expected revision, so only one claim wins. */
export type LeadCallStarted = DomainEvent<
  'LeadCallStarted',
  Ids & { call_id: number; secondary_contact_id: number | null; phone_number: string; attempt: number }
>;
export type LeadCallFinished = DomainEvent<
  'LeadCallFinished',
  Ids & { call_id: number; secondary_contact_id: number | null; call_status: string; reached: boolean }
>;
/** A contact answered: it (the primary number when `secondary_contact_id` is null) and the lead are completed. */
export type LeadReached = DomainEvent<'LeadReached', Ids & { call_id: number; secondary_contact_id: number | null }>;
/** The round goes on with the next `created` secondary contact. */
export type LeadNextContactDue = DomainEvent<'LeadNextContactDue', Ids & { secondary_contact_id: number; due_at: string }>;
/** A round reached nobody; the next round starts from the primary number at `next_due_at`. */
export type LeadAttemptFailed = DomainEvent<'LeadAttemptFailed', Ids & { attempts: number; next_due_at: string }>;
/** The last allowed round reached nobody: the lead and its open contacts are `reached-max-retries`. */
export type LeadReachedMaxRetries = DomainEvent<'LeadReachedMaxRetries', Ids & { attempts: number }>;

/** Why a lead was ended without being reached (docs/dialing.md). */
export type LeadStopReason = 'do-not-call' | 'opt-out' | 'no-timezone';
/** A contact's number is on the do-not-call list: passed over in its round, with no attempt used. */
export type LeadContactSkipped = DomainEvent<'LeadContactSkipped', Ids & { secondary_contact_id: number | null; phone_number: string; reason: 'do-not-call' }>;
/** The contact due may not be dialed now (its window, quiet hours, a holiday): its turn moves to `due_at`. */
export type LeadDialDeferred = DomainEvent<'LeadDialDeferred', Ids & { secondary_contact_id: number | null; due_at: string }>;
/** The lead ends `completed` without a call reaching it: every number listed, an opt-out, or no zone to dial it in. */
export type LeadStopped = DomainEvent<'LeadStopped', Ids & { reason: LeadStopReason }>;

export type LeadEvent =
  | LeadCreated
  | LeadVariablesMerged
  | LeadPhoneNumberChanged
  | LeadMovedToCampaign
  | LeadStatusChanged
  | LeadRequeued
  | LeadDeleted
  | LeadCallStarted
  | LeadCallFinished
  | LeadReached
  | LeadNextContactDue
  | LeadAttemptFailed
  | LeadReachedMaxRetries
  | LeadContactSkipped
  | LeadDialDeferred
  | LeadStopped;

/** What every lead event names: the lead, its organisation, its campaign. */
const IDS = { lead_id: 'plain', user_id: 'plain', campaign_id: 'plain' } as const;

export const LEAD_EVENT_TYPES = declareFields<LeadEvent>({
  LeadCreated: { ...IDS, timezone: 'plain', zones: 'plain', phone_number: 'subject', variables: 'personal', secondary_contacts: 'personal' },
  LeadVariablesMerged: { ...IDS, variables: 'personal' },
  LeadPhoneNumberChanged: { ...IDS, phone_number: 'personal', zones: 'plain' },
  LeadMovedToCampaign: { ...IDS, from_campaign_id: 'plain' },
  LeadStatusChanged: { ...IDS, from: 'plain', to: 'plain' },
  LeadRequeued: { ...IDS },
  LeadDeleted: { ...IDS },
  LeadCallStarted: { ...IDS, call_id: 'plain', secondary_contact_id: 'plain', phone_number: 'personal', attempt: 'plain' },
  LeadCallFinished: { ...IDS, call_id: 'plain', secondary_contact_id: 'plain', call_status: 'plain', reached: 'plain' },
  LeadReached: { ...IDS, call_id: 'plain', secondary_contact_id: 'plain' },
  LeadNextContactDue: { ...IDS, secondary_contact_id: 'plain', due_at: 'plain' },
  LeadAttemptFailed: { ...IDS, attempts: 'plain', next_due_at: 'plain' },
  LeadReachedMaxRetries: { ...IDS, attempts: 'plain' },
  LeadContactSkipped: { ...IDS, secondary_contact_id: 'plain', phone_number: 'personal', reason: 'plain' },
  LeadDialDeferred: { ...IDS, secondary_contact_id: 'plain', due_at: 'plain' },
  LeadStopped: { ...IDS, reason: 'plain' },
});
