import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

/**
 * One stream per user and number (docs/dialing.md, docs/imports.md), named by the number's keyed
 * hash (its subject key id, docs/privacy.md), never its digits. Stores from before kept a user's
 * whole list in `dnc-<user id>`, then streams named by digits: their events are still read by the
 * projection, never written again.
 */
export const doNotCallStream = (organisationId: number, numberKey: string) => `dnc_number-${organisationId}_${numberKey}`;

const KEYED_STREAM = /^dnc_number-\d+_(ds_[A-Za-z0-9_-]+)$/;

/** The number's keyed hash a stream is named by; undefined for a stream of an earlier store. */
export const numberKeyOfStream = (stream: string): string | undefined => KEYED_STREAM.exec(stream)?.[1];

/**
 * Who listed a number: the user one by one, a callee's opt-out, the user's bulk import, or the
 * erasure of the person (docs/privacy.md: such a listing stays).
 */
export type ListingSource = 'user' | 'opt-out' | 'import' | 'erasure';

/** Numbers (E.164) that are never dialed for this user again; only those not listed yet. */
export type NumbersAddedToDoNotCall = DomainEvent<
  'NumbersAddedToDoNotCall',
  { user_id: number; phone_numbers: string[]; reason: string | null; source: ListingSource }
>;
export type NumberRemovedFromDoNotCall = DomainEvent<'NumberRemovedFromDoNotCall', { user_id: number; phone_number: string }>;

export type DoNotCallEvent = NumbersAddedToDoNotCall | NumberRemovedFromDoNotCall;

export const DO_NOT_CALL_EVENT_TYPES = declareFields<DoNotCallEvent>({
  NumbersAddedToDoNotCall: { user_id: 'plain', phone_numbers: 'personal', reason: 'personal', source: 'plain' },
  NumberRemovedFromDoNotCall: { user_id: 'plain', phone_number: 'personal' },
});
