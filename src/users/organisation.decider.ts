import { Role, Scope, forbidden, roleAtLeast } from '../access/permissions';
import { Decider } from '../shared/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { OrganisationEvent } from './organisation.events';

export const LAST_OWNER = 'An organisation must keep at least one owner.';

/**
 * `by`: the member acting (an API key acts as its creator); null for the operator's CLI, which
 * may do anything. The acting member's role is read from this stream, where it is written.
 */
export type OrganisationCommand =
  | { type: 'FoundOrganisation'; organisationId: number; ownerUserId: number; email: string; upgraded?: boolean }
  | { type: 'AddMember'; by: number | null; userId: number; email: string; role: Role; viaKey?: boolean }
  | { type: 'ChangeMemberRole'; by: number | null; userId: number; role: Role }
  | { type: 'RemoveMember'; by: number | null; userId: number }
  | {
      type: 'CreateApiKey';
      by: number;
      keyId: number;
      name: string;
      scopes: Scope[];
      prefix: string;
      tokenHash: string;
      expiresAt: string | null;
      /** The API key the request came with: the new key stays within its scopes and expiry. */
      viaKey?: { scopes: readonly Scope[]; expiresAt: string | null };
    }
  | { type: 'RevokeApiKey'; by: number; keyId: number };

export interface OrganisationState {
  id: number | null;
  members: ReadonlyMap<number, Role>;
  /** Live keys and who made them. */
  keys: ReadonlyMap<number, number>;
}

const owners = (state: OrganisationState) => [...state.members.values()].filter((role) => role === 'owner').length;

/** The acting member may manage members (admin or owner); touching an owner takes an owner. */
function mayManage(state: OrganisationState, by: number | null, touchesOwner: boolean): void {
  if (by === null) return;
  const role = state.members.get(by);
  if (!role || !roleAtLeast(role, 'admin') || (touchesOwner && role !== 'owner')) throw forbidden();
}

function memberOf(state: OrganisationState, userId: number): Role {
  const role = state.members.get(userId);
  if (!role) throw DomainError.notFound('Member');
  return role;
}

export const EXPIRY_BEYOND_KEY = (expiresAt: string) => `The expires at field must be a date no later than ${expiresAt}, when this API key expires.`;

/**
 * No credential mints a broader one: a key made with a key gets scopes within its own (403 naming
 * the first beyond) and an expiry no later than its own; left out, the expiry is the key's own.
 */
function withinKey({ scopes, expiresAt, viaKey }: Extract<OrganisationCommand, { type: 'CreateApiKey' }>): string | null {
  if (!viaKey) return expiresAt;
  const beyond = scopes.find((scope) => !viaKey.scopes.includes(scope));
  if (beyond) throw forbidden(beyond);
  if (viaKey.expiresAt === null) return expiresAt;
  if (expiresAt === null) return viaKey.expiresAt;
  if (Date.parse(expiresAt) > Date.parse(viaKey.expiresAt)) throw DomainError.validation('expires_at', EXPIRY_BEYOND_KEY(viaKey.expiresAt));
  return expiresAt;
}

export const organisationDecider: Decider<OrganisationCommand, OrganisationState, OrganisationEvent> = {
  initialState: { id: null, members: new Map(), keys: new Map() },

  decide(command, state) {
    if (command.type === 'FoundOrganisation') {
      if (state.id !== null) throw new DomainError('conflict', 'Organisation already exists');
      const { organisationId, ownerUserId, email, upgraded } = command;
      return [{ type: 'OrganisationFounded', data: { organisation_id: organisationId, owner_user_id: ownerUserId, email, ...(upgraded ? { upgraded } : {}) } }];
    }
    if (state.id === null) throw DomainError.notFound('Organisation');
    const organisation_id = state.id;
    switch (command.type) {
      case 'AddMember':
        // A member's token has neither scopes nor expiry: a key adding one would mint a broader credential.
        if (command.viaKey) throw forbidden();
        mayManage(state, command.by, command.role === 'owner');
        return [{ type: 'MemberAdded', data: { organisation_id, user_id: command.userId, email: command.email, role: command.role } }];
      case 'ChangeMemberRole': {
        const from = memberOf(state, command.userId);
        mayManage(state, command.by, from === 'owner' || command.role === 'owner');
        if (from === command.role) return [];
        if (from === 'owner' && owners(state) === 1) throw DomainError.validation('role', LAST_OWNER, LAST_OWNER);
        return [{ type: 'MemberRoleChanged', data: { organisation_id, user_id: command.userId, from, role: command.role } }];
      }
      case 'RemoveMember': {
        const role = memberOf(state, command.userId);
        mayManage(state, command.by, role === 'owner');
        if (role === 'owner' && owners(state) === 1) throw DomainError.validation('id', LAST_OWNER, LAST_OWNER);
        return [{ type: 'MemberRemoved', data: { organisation_id, user_id: command.userId } }];
      }
      case 'CreateApiKey': {
        mayManage(state, command.by, false);
        const expiresAt = withinKey(command);
        return [
          {
            type: 'ApiKeyCreated',
            data: {
              organisation_id,
              key_id: command.keyId,
              name: command.name,
              scopes: command.scopes,
              prefix: command.prefix,
              token_hash: command.tokenHash,
              created_by: command.by,
              expires_at: expiresAt,
            },
          },
        ];
      }
      case 'RevokeApiKey':
        if (!state.keys.has(command.keyId)) throw DomainError.notFound('API key');
        mayManage(state, command.by, false);
        return [{ type: 'ApiKeyRevoked', data: { organisation_id, key_id: command.keyId } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'OrganisationFounded':
        return { ...state, id: event.data.organisation_id, members: new Map([[event.data.owner_user_id, 'owner']]) };
      case 'MemberAdded':
      case 'MemberRoleChanged':
        return { ...state, members: new Map(state.members).set(event.data.user_id, event.data.role) };
      case 'MemberRemoved': {
        const members = new Map(state.members);
        members.delete(event.data.user_id);
        return { ...state, members };
      }
      case 'ApiKeyCreated':
        return { ...state, keys: new Map(state.keys).set(event.data.key_id, event.data.created_by) };
      case 'ApiKeyRevoked': {
        const keys = new Map(state.keys);
        keys.delete(event.data.key_id);
        return { ...state, keys };
      }
    }
  },
};
