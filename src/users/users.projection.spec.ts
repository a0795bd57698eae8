import { AT, projectionSpec } from '../testing/projection-spec';
import { UsersProjection } from './users.projection';

const registered = { type: 'UserRegistered', data: { user_id: 1, email: 'a@b.c', tool_limit: 10, webhook_secret: 's' } };
const issued = (hash: string) => ({ type: 'AccessTokenIssued', data: { user_id: 1, token_hash: hash } });

describe('users projection', () => {
  const users = projectionSpec(
    (store) => new UsersProjection(store),
    (p) => p.users,
  );
  const tokens = projectionSpec(
    (store) => new UsersProjection(store),
    (p) => p.tokens,
    'token_hash',
  );

  const members = projectionSpec(
    (store) => new UsersProjection(store),
    (p) => p.members,
    'user_id',
  );
  const keys = projectionSpec(
    (store) => new UsersProjection(store),
    (p) => p.apiKeys,
  );
  const founded = { type: 'OrganisationFounded', data: { organisation_id: 1, owner_user_id: 1, email: 'a@b.c' } };
  const added = (user_id: number, role: string) => ({ type: 'MemberAdded', data: { organisation_id: 1, user_id, email: `u${user_id}@b.c`, role } });

  it('keeps a user as registered', () =>
    users.given(registered).then([{ id: 1, email: 'a@b.c', tool_limit: 10, webhook_secret: 's', organisation_id: 1, created_at: AT }]));

  it('gives a user from before organisations the one of its own id, as its owner', () =>
    members.given(registered).then([{ user_id: 1, organisation_id: 1, email: 'a@b.c', role: 'owner', created_at: AT }]));

  it('keeps a member of another organisation in it, with its role', () =>
    users
      .given({ type: 'UserRegistered', data: { user_id: 2, email: 'b@b.c', tool_limit: 10, webhook_secret: 't', organisation_id: 1 } })
      .then([{ id: 2, email: 'b@b.c', tool_limit: 10, webhook_secret: 't', organisation_id: 1, created_at: AT }]));

  it('keeps the members as founded, added, changed and removed', () =>
    members
      .given(
        founded,
        added(2, 'viewer'),
        added(3, 'editor'),
        { type: 'MemberRoleChanged', data: { organisation_id: 1, user_id: 2, from: 'viewer', role: 'admin' } },
        {
          type: 'MemberRemoved',
          data: { organisation_id: 1, user_id: 3 },
        },
      )
      .then([
        { user_id: 1, organisation_id: 1, email: 'a@b.c', role: 'owner', created_at: AT },
        { user_id: 2, organisation_id: 1, email: 'u2@b.c', role: 'admin', created_at: AT },
      ]));

  it('keeps live API keys by id, with their hash but never a token', () => {
    const key = (key_id: number) => ({
      type: 'ApiKeyCreated',
      data: {
        organisation_id: 1,
        key_id,
        name: `k${key_id}`,
        scopes: ['read'],
        prefix: 'ak_abcdefgh',
        token_hash: `h${key_id}`,
        created_by: 1,
        expires_at: null,
      },
    });
    return keys
      .given(founded, key(1), key(2), { type: 'ApiKeyRevoked', data: { organisation_id: 1, key_id: 1 } })
      .then([
        { id: 2, organisation_id: 1, name: 'k2', scopes: ['read'], prefix: 'ak_abcdefgh', token_hash: 'h2', created_by: 1, created_at: AT, expires_at: null },
      ]);
  });

  it('keeps every token by its hash, revoked or not', () =>
    tokens.given(registered, issued('h1'), issued('h2'), { type: 'AccessTokenRevoked', data: { user_id: 1, token_hash: 'h1' } }).then([
      { token_hash: 'h1', user_id: 1, revoked: true },
      { token_hash: 'h2', user_id: 1, revoked: false },
    ]));
});
