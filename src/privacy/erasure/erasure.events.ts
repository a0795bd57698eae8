import { DomainEvent } from '../../shared/event-sourcing/decider';
import { declareFields } from '../../shared/event-sourcing/event-fields';
import { HOLDINGS_FIELDS, SubjectErased } from '../../shared/sealing/subject-erased.event';

/** One stream per erasure (docs/privacy.md). */
export const erasureStream = (erasureId: number) => `erasure-${erasureId}`;

/** Asked to erase a number: the number itself sealed under its own key, so the erasure erases it here too. */
export type SubjectErasureRequested = DomainEvent<
  'SubjectErasureRequested',
  { erasure_id: number; user_id: number; phone_number: string; requested_at: string }
>;
/** What holds the number's values, found before its key is destroyed (after, nothing could find them). */
export type SubjectHoldingsFound = DomainEvent<
  'SubjectHoldingsFound',
  Pick<SubjectErased['data'], 'erasure_id' | 'user_id' | 'subject_key' | 'leads' | 'contacts' | 'calls' | 'import_rows'>
>;

/** Every read model put `[erased]` in place of the values and the stores' files keep no copy: the erasure is done. */
export type SubjectErasureFinished = DomainEvent<'SubjectErasureFinished', { erasure_id: number; finished_at: string }>;

export type ErasureEvent = SubjectErasureRequested | SubjectHoldingsFound | SubjectErased | SubjectErasureFinished;

export const ERASURE_EVENT_TYPES = declareFields<SubjectErasureRequested | SubjectHoldingsFound | SubjectErasureFinished>({
  SubjectErasureFinished: { erasure_id: 'plain', finished_at: 'plain' },
  SubjectErasureRequested: { erasure_id: 'plain', user_id: 'plain', phone_number: 'subject', requested_at: 'plain' },
  SubjectHoldingsFound: HOLDINGS_FIELDS,
});
