import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

export const userStream = (userId: number) => `user-${userId}`;

/** `organisation_id`: absent before organisations (docs/teams.md): the user's own organisation then, which took its id. */
export type UserRegistered = DomainEvent<
  'UserRegistered',
  { user_id: number; email: string; tool_limit: number; webhook_secret: string; organisation_id?: number }
>;
/** Tokens are never stored, only their SHA-256. */
export type AccessTokenIssued = DomainEvent<'AccessTokenIssued', { user_id: number; token_hash: string }>;
export type AccessTokenRevoked = DomainEvent<'AccessTokenRevoked', { user_id: number; token_hash: string }>;

export type QuietHours = { start: string; end: string };
/**
 * docs/dialing.md: the user's quiet hours, in the called party's time; null: no floor (only the
 * operator sets that). `by` names who set them: the user (within the floor) or the operator.
 */
export type UserQuietHoursSet = DomainEvent<'UserQuietHoursSet', { user_id: number; quiet_hours: QuietHours | null; by: 'user' | 'operator' }>;

/** docs/privacy.md: how many days a call's values of each kind are kept; null: kept. */
export interface Retention {
  transcripts_days: number | null;
  recordings_days: number | null;
  variables_days: number | null;
}
export const KEEP_ALL: Retention = { transcripts_days: null, recordings_days: null, variables_days: null };
/** The organisation's retention as it is from now on (each kind given, or kept from before). */
export type UserRetentionSet = DomainEvent<'UserRetentionSet', { user_id: number; retention: Retention }>;

export type UserEvent = UserRegistered | AccessTokenIssued | AccessTokenRevoked | UserQuietHoursSet | UserRetentionSet;

export const USER_EVENT_TYPES = declareFields<UserEvent>({
  UserRegistered: { user_id: 'plain', email: 'personal', tool_limit: 'plain', webhook_secret: 'secret', organisation_id: 'plain' },
  AccessTokenIssued: { user_id: 'plain', token_hash: 'plain' },
  AccessTokenRevoked: { user_id: 'plain', token_hash: 'plain' },
  UserQuietHoursSet: { user_id: 'plain', quiet_hours: 'plain', by: 'plain' },
  UserRetentionSet: { user_id: 'plain', retention: 'plain' },
});
