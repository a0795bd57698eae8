import { DomainEvent } from '../event-sourcing/decider';
import { declareFields } from '../event-sourcing/event-fields';
import { ERASED, staysReadable } from './personal-fields';

/**
 * docs/privacy.md: a person's key was destroyed (the fact sealing records: every read model holding
 * personal values puts `[erased]` in their place when it sees it); what held their values, for each read model to
 * show `[erased]` in their place (the log itself reads so already). No personal value: the
 * subject is named by its key id, a keyed hash. `leads`: as primary contact; `contacts`: as a
 * secondary contact of a lead; `import_rows`: refused rows that named the number.
 */
export type SubjectErased = DomainEvent<
  'SubjectErased',
  {
    erasure_id: number;
    user_id: number;
    subject_key: string;
    leads: number[];
    contacts: Array<{ lead_id: number; contact_id: number }>;
    calls: number[];
    import_rows: Array<{ import_id: number; row: number }>;
    /** Who asked for the erasure (the erasure itself is carried out by the service). */
    requested_by: { type: string; id: number | null };
    completed_at: string;
  }
>;

/** What held an erased person's values: ids and a keyed hash, nothing personal. */
export const HOLDINGS_FIELDS = {
  erasure_id: 'plain',
  user_id: 'plain',
  subject_key: 'plain',
  leads: 'plain',
  contacts: 'plain',
  calls: 'plain',
  import_rows: 'plain',
} as const;

export const SUBJECT_ERASED_TYPES = declareFields<SubjectErased>({
  SubjectErased: { ...HOLDINGS_FIELDS, requested_by: 'plain', completed_at: 'plain' },
});

/** `value` with every value in it erased, its shape kept: an object's fields, a list's items. */
export function erasedValues(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map(erasedValues);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, erasedValues(inner)]));
  return ERASED;
}

/** A record about the person (a lead or call in a webhook's body) erased but for its ids, status and times. */
export function erasedRecord(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return erasedValues(value);
  return Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, staysReadable(field) ? inner : erasedValues(inner)]));
}
