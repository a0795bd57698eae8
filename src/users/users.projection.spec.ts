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

  it('keeps a user as registered', () => users.given(registered).then([{ id: 1, email: 'a@b.c', tool_limit: 10, webhook_secret: 's', created_at: AT }]));

  it('keeps every token by its hash, revoked or not', () =>
    tokens.given(registered, issued('h1'), issued('h2'), { type: 'AccessTokenRevoked', data: { user_id: 1, token_hash: 'h1' } }).then([
      { token_hash: 'h1', user_id: 1, revoked: true },
      { token_hash: 'h2', user_id: 1, revoked: false },
    ]));
});
