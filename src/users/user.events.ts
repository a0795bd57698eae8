import { DomainEvent, eventTypes } from '../infrastructure/event-sourcing/decider';

export const userStream = (userId: number) => `user-${userId}`;

export type UserRegistered = DomainEvent<'UserRegistered', { user_id: number; email: string; tool_limit: number; webhook_secret: string }>;
/** Tokens are never stored, only their SHA-256. */
export type AccessTokenIssued = DomainEvent<'AccessTokenIssued', { user_id: number; token_hash: string }>;
export type AccessTokenRevoked = DomainEvent<'AccessTokenRevoked', { user_id: number; token_hash: string }>;

export type UserEvent = UserRegistered | AccessTokenIssued | AccessTokenRevoked;

export const USER_EVENT_TYPES = eventTypes<UserEvent>({ UserRegistered: true, AccessTokenIssued: true, AccessTokenRevoked: true });
