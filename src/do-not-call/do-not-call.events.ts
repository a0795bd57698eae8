import { DomainEvent } from '../infrastructure/event-sourcing/decider';
import { declareFields } from '../infrastructure/event-sourcing/event-fields';

/**
 * One stream per user and number (docs/dialing.md, docs/imports.md). Stores from before kept a user's whole
 * list in `dnc-<user id>`: its events are still read by the projection, never written again.
 */
export const doNotCallStream = (organisationId: number, e164: string) => `dnc_number-${organisationId}_${e164.replace(/^\+/, '')}`;

/** Who listed a number: the user one by one, a callee's opt-out, or the user's bulk import. */
export type ListingSource = 'user' | 'opt-out' | 'import';

/** Numbers (E.164) that are never dialed for this user again; only those not listed yet. */
export type NumbersAddedToDoNotCall = DomainEvent<
  'NumbersAddedToDoNotCall',
  { user_id: number; phone_numbers: string[]; reason: string | null; source: ListingSource }
>;
export type NumberRemovedFromDoNotCall = DomainEvent<'NumberRemovedFromDoNotCall', { user_id: number; phone_number: string }>;

export type DoNotCallEvent = NumbersAddedToDoNotCall | NumberRemovedFromDoNotCall;

export const DO_NOT_CALL_EVENT_TYPES = declareFields<DoNotCallEvent>({
  NumbersAddedToDoNotCall: { user_id: 'plain', phone_numbers: 'personal', reason: 'plain', source: 'plain' },
  NumberRemovedFromDoNotCall: { user_id: 'plain', phone_number: 'personal' },
});
