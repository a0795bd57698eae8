import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';
import { Role, Scope } from '../access/permissions';

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

export const ORGANISATION_EVENT_TYPES = declareFields<OrganisationEvent>({
  OrganisationFounded: { organisation_id: 'plain', owner_user_id: 'plain', email: 'personal', upgraded: 'plain' },
  MemberAdded: { organisation_id: 'plain', user_id: 'plain', email: 'personal', role: 'plain' },
  MemberRoleChanged: { organisation_id: 'plain', user_id: 'plain', from: 'plain', role: 'plain' },
  MemberRemoved: { organisation_id: 'plain', user_id: 'plain' },
  ApiKeyCreated: {
    organisation_id: 'plain',
    key_id: 'plain',
    name: 'plain',
    scopes: 'plain',
    prefix: 'plain',
    token_hash: 'plain',
    created_by: 'plain',
    expires_at: 'plain',
  },
  ApiKeyRevoked: { organisation_id: 'plain', key_id: 'plain' },
});
