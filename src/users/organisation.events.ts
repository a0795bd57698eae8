import { DomainEvent, eventTypes } from '../infrastructure/event-sourcing/decider';
import { Role, Scope } from '../infrastructure/auth/permissions';

/**
 * docs/teams.md. An organisation made with a user takes that user's id, so every resource a
 * user owned before organisations existed is already its organisation's.
 */
export const organisationStream = (id: number) => `organisation-${id}`;

type Ids = { organisation_id: number };
/** `upgraded`: made on start for a user from a store older than organisations. */
export type OrganisationFounded = DomainEvent<'OrganisationFounded', Ids & { owner_user_id: number; email: string; upgraded?: boolean }>;
export type MemberAdded = DomainEvent<'MemberAdded', Ids & { user_id: number; email: string; role: Role }>;
export type MemberRoleChanged = DomainEvent<'MemberRoleChanged', Ids & { user_id: number; from: Role; role: Role }>;
export type MemberRemoved = DomainEvent<'MemberRemoved', Ids & { user_id: number }>;
/** The key itself is never stored: only its SHA-256 and the prefix shown to tell keys apart. */
export type ApiKeyCreated = DomainEvent<
  'ApiKeyCreated',
  Ids & { key_id: number; name: string; scopes: Scope[]; prefix: string; token_hash: string; created_by: number; expires_at: string | null }
>;
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', Ids & { key_id: number }>;

export type OrganisationEvent = OrganisationFounded | MemberAdded | MemberRoleChanged | MemberRemoved | ApiKeyCreated | ApiKeyRevoked;

export const ORGANISATION_EVENT_TYPES = eventTypes<OrganisationEvent>({
  OrganisationFounded: true,
  MemberAdded: true,
  MemberRoleChanged: true,
  MemberRemoved: true,
  ApiKeyCreated: true,
  ApiKeyRevoked: true,
});
