import { deciderSpec } from '../testing/decider-spec';
import { SCOPES, Scope } from '../access/permissions';
import { EXPIRY_BEYOND_KEY, LAST_OWNER, organisationDecider } from './organisation.decider';
import { OrganisationEvent } from './organisation.events';

const { given } = deciderSpec(organisationDecider);
const ORG = 1;
const founded: OrganisationEvent = { type: 'OrganisationFounded', data: { organisation_id: ORG, owner_user_id: 1, email: 'o@x.io' } };
const added = (user_id: number, role: 'owner' | 'admin' | 'editor' | 'viewer'): OrganisationEvent => ({
  type: 'MemberAdded',
  data: { organisation_id: ORG, user_id, email: `u${user_id}@x.io`, role },
});
const team = [founded, added(2, 'admin'), added(3, 'editor'), added(4, 'viewer')];
const UNAUTHORIZED = 'This action is unauthorized.';
const key = { keyId: 9, name: 'crm', scopes: ['read' as const], prefix: 'ak_12345678', tokenHash: 'h', expiresAt: null };

describe('organisation decider (docs/teams.md)', () => {
  it('founds an organisation once, with its owner', () => {
    given([]).when({ type: 'FoundOrganisation', organisationId: ORG, ownerUserId: 1, email: 'o@x.io' }).then([founded]);
    given([founded]).when({ type: 'FoundOrganisation', organisationId: ORG, ownerUserId: 1, email: 'o@x.io' }).thenThrows('Organisation already exists');
    given([]).when({ type: 'AddMember', by: null, userId: 2, email: 'u2@x.io', role: 'viewer' }).thenThrows('Organisation not found');
  });

  it('lets admins and owners add members; an owner only by an owner; editors and viewers none', () => {
    given(team)
      .when({ type: 'AddMember', by: 2, userId: 5, email: 'u5@x.io', role: 'editor' })
      .then([added(5, 'editor')]);
    given(team)
      .when({ type: 'AddMember', by: 1, userId: 5, email: 'u5@x.io', role: 'owner' })
      .then([added(5, 'owner')]);
    given(team).when({ type: 'AddMember', by: 2, userId: 5, email: 'u5@x.io', role: 'owner' }).thenThrows(UNAUTHORIZED);
    given(team).when({ type: 'AddMember', by: 3, userId: 5, email: 'u5@x.io', role: 'viewer' }).thenThrows(UNAUTHORIZED);
    given(team).when({ type: 'AddMember', by: 4, userId: 5, email: 'u5@x.io', role: 'viewer' }).thenThrows(UNAUTHORIZED);
    // Someone no longer (or never) a member decides nothing; the operator may do anything.
    given(team).when({ type: 'AddMember', by: 99, userId: 5, email: 'u5@x.io', role: 'viewer' }).thenThrows(UNAUTHORIZED);
    given(team)
      .when({ type: 'AddMember', by: null, userId: 5, email: 'u5@x.io', role: 'owner' })
      .then([added(5, 'owner')]);
  });

  it('changes roles; only an owner touches an owner; the same role decides nothing', () => {
    given(team)
      .when({ type: 'ChangeMemberRole', by: 2, userId: 3, role: 'viewer' })
      .then([{ type: 'MemberRoleChanged', data: { organisation_id: ORG, user_id: 3, from: 'editor', role: 'viewer' } }]);
    given(team).when({ type: 'ChangeMemberRole', by: 2, userId: 3, role: 'owner' }).thenThrows(UNAUTHORIZED);
    given(team).when({ type: 'ChangeMemberRole', by: 2, userId: 1, role: 'admin' }).thenThrows(UNAUTHORIZED);
    given(team).when({ type: 'ChangeMemberRole', by: 1, userId: 3, role: 'editor' }).then([]);
    given(team).when({ type: 'ChangeMemberRole', by: 1, userId: 77, role: 'editor' }).thenThrows('Member not found');
  });

  it('keeps at least one owner, by role change or by removal', () => {
    given(team).when({ type: 'ChangeMemberRole', by: 1, userId: 1, role: 'admin' }).thenThrows(LAST_OWNER);
    given(team).when({ type: 'RemoveMember', by: 1, userId: 1 }).thenThrows(LAST_OWNER);
    const twoOwners = [...team, added(5, 'owner')];
    given(twoOwners)
      .when({ type: 'RemoveMember', by: 5, userId: 1 })
      .then([{ type: 'MemberRemoved', data: { organisation_id: ORG, user_id: 1 } }]);
    given([...twoOwners, { type: 'MemberRemoved', data: { organisation_id: ORG, user_id: 1 } }])
      .when({ type: 'RemoveMember', by: 5, userId: 5 })
      .thenThrows(LAST_OWNER);
  });

  it('removes members: admins remove non-owners, a removed member decides nothing more', () => {
    const removed: OrganisationEvent = { type: 'MemberRemoved', data: { organisation_id: ORG, user_id: 3 } };
    given(team).when({ type: 'RemoveMember', by: 2, userId: 3 }).then([removed]);
    given(team).when({ type: 'RemoveMember', by: 3, userId: 4 }).thenThrows(UNAUTHORIZED);
    given([...team, removed])
      .when({ type: 'RemoveMember', by: 2, userId: 3 })
      .thenThrows('Member not found');
    given([...team, { type: 'MemberRemoved', data: { organisation_id: ORG, user_id: 2 } }])
      .when({ type: 'RemoveMember', by: 2, userId: 4 })
      .thenThrows(UNAUTHORIZED);
  });

  it('creates and revokes API keys for admins and owners only; a revoked key is gone', () => {
    const created: OrganisationEvent = {
      type: 'ApiKeyCreated',
      data: { organisation_id: ORG, key_id: 9, name: 'crm', scopes: ['read'], prefix: 'ak_12345678', token_hash: 'h', created_by: 2, expires_at: null },
    };
    given(team)
      .when({ type: 'CreateApiKey', by: 2, ...key })
      .then([created]);
    given(team)
      .when({ type: 'CreateApiKey', by: 3, ...key })
      .thenThrows(UNAUTHORIZED);
    const revoked: OrganisationEvent = { type: 'ApiKeyRevoked', data: { organisation_id: ORG, key_id: 9 } };
    given([...team, created])
      .when({ type: 'RevokeApiKey', by: 1, keyId: 9 })
      .then([revoked]);
    given([...team, created])
      .when({ type: 'RevokeApiKey', by: 4, keyId: 9 })
      .thenThrows(UNAUTHORIZED);
    given([...team, created, revoked])
      .when({ type: 'RevokeApiKey', by: 1, keyId: 9 })
      .thenThrows('API key not found');
  });

  describe('no credential mints a broader one', () => {
    const viaKey = (scopes: Scope[], expiresAt: string | null) => ({ scopes, expiresAt });
    const made = (scopes: Scope[], expires_at: string | null): OrganisationEvent => ({
      type: 'ApiKeyCreated',
      data: { organisation_id: ORG, key_id: 9, name: 'crm', scopes, prefix: 'ak_12345678', token_hash: 'h', created_by: 2, expires_at },
    });

    it.each(SCOPES.map((scope) => [scope]))('a key holding only %s makes keys with that scope alone', (scope) => {
      given(team)
        .when({ type: 'CreateApiKey', by: 2, ...key, scopes: [scope], viaKey: viaKey([scope], null) })
        .then([made([scope], null)]);
      const beyond = SCOPES.find((other) => other !== scope)!;
      given(team)
        .when({ type: 'CreateApiKey', by: 2, ...key, scopes: [scope, beyond], viaKey: viaKey([scope], null) })
        .thenThrows(UNAUTHORIZED);
      given(team)
        .when({ type: 'CreateApiKey', by: 2, ...key, scopes: [...SCOPES], viaKey: viaKey([scope], null) })
        .thenThrows(UNAUTHORIZED);
    });

    it('gives a key made by a key an expiry no later than its own: left out, its own', () => {
      const soon = '2030-01-01T00:00:00.000Z';
      given(team)
        .when({ type: 'CreateApiKey', by: 2, ...key, expiresAt: null, viaKey: viaKey(['read'], soon) })
        .then([made(['read'], soon)]);
      given(team)
        .when({ type: 'CreateApiKey', by: 2, ...key, expiresAt: '2029-06-01T00:00:00.000Z', viaKey: viaKey(['read'], soon) })
        .then([made(['read'], '2029-06-01T00:00:00.000Z')]);
      expect(
        given(team)
          .when({ type: 'CreateApiKey', by: 2, ...key, expiresAt: '2030-01-01T00:00:01.000Z', viaKey: viaKey(['read'], soon) })
          .refusal(),
      ).toEqual({ message: 'Validation failed', errors: { expires_at: [EXPIRY_BEYOND_KEY(soon)] } });
    });

    it('refuses a member added with a key, whatever its scopes: a member token has neither scopes nor expiry', () => {
      given(team).when({ type: 'AddMember', by: 2, userId: 5, email: 'u5@x.io', role: 'viewer', viaKey: true }).thenThrows(UNAUTHORIZED);
      given(team).when({ type: 'AddMember', by: 1, userId: 5, email: 'u5@x.io', role: 'viewer', viaKey: true }).thenThrows(UNAUTHORIZED);
    });
  });
});
