import { DomainEvent, eventTypes } from '../infrastructure/event-sourcing/decider';

export const leadStream = (id: number) => `lead-${id}`;

export type LeadStatus = 'created' | 'completed' | 'reached-max-retries';
export const LEAD_STATUSES: readonly LeadStatus[] = ['created', 'completed', 'reached-max-retries'];
export type Variables = Record<string, string | number | boolean | null>;

/** Every lead event names its user and campaign, so a replay can place it without other streams. */
type Ids = { lead_id: number; user_id: number; campaign_id: number };

export interface SecondaryContactSpec {
  id: number;
  phone_number: string;
  variables: Variables;
}

export type LeadCreated = DomainEvent<'LeadCreated', Ids & { phone_number: string; variables: Variables; secondary_contacts: SecondaryContactSpec[] }>;
export type LeadVariablesMerged = DomainEvent<'LeadVariablesMerged', Ids & { variables: Variables }>;
export type LeadPhoneNumberChanged = DomainEvent<'LeadPhoneNumberChanged', Ids & { phone_number: string }>;
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
  | LeadReachedMaxRetries;

export const LEAD_EVENT_TYPES = eventTypes<LeadEvent>({
  LeadCreated: true,
  LeadVariablesMerged: true,
  LeadPhoneNumberChanged: true,
  LeadMovedToCampaign: true,
  LeadStatusChanged: true,
  LeadRequeued: true,
  LeadDeleted: true,
  LeadCallStarted: true,
  LeadCallFinished: true,
  LeadReached: true,
  LeadNextContactDue: true,
  LeadAttemptFailed: true,
  LeadReachedMaxRetries: true,
});
