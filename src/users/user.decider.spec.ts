import { deciderSpec } from '../testing/decider-spec';
import { DomainError } from '../shared/domain-error';
import { userDecider } from './user.decider';
import { UserEvent } from './user.events';

const { given } = deciderSpec(userDecider, new Date('2025-01-01T00:00:00Z'));
const registered: UserEvent[] = [
  { type: 'UserRegistered', data: { user_id: 1, email: 'a@b.c', tool_limit: 10, webhook_secret: 's', organisation_id: 1 } },
  { type: 'AccessTokenIssued', data: { user_id: 1, token_hash: 'h1' } },
];

describe('user decider', () => {
  it('registers a new user together with its first token', () => {
    const events = given([]).when({ type: 'RegisterUser', userId: 1, organisationId: 1, email: 'a@b.c', toolLimit: 10, webhookSecret: 's', tokenHash: 'h1' })();
    expect(events).toEqual(registered);
  });

  it('refuses to register the same user twice', () => {
    expect(
      given(registered).when({ type: 'RegisterUser', userId: 1, organisationId: 1, email: 'x', toolLimit: 1, webhookSecret: 's', tokenHash: 'h' }),
    ).toThrow(DomainError);
  });

  it('issues further tokens to a registered user only', () => {
    given(registered)
      .when({ type: 'IssueAccessToken', userId: 1, tokenHash: 'h2' })
      .then([{ type: 'AccessTokenIssued', data: { user_id: 1, token_hash: 'h2' } }]);
    expect(given([]).when({ type: 'IssueAccessToken', userId: 1, tokenHash: 'h2' })).toThrow('User not found');
  });

  it('revokes an active token once; revoking again decides nothing', () => {
    const revoked = given(registered).when({ type: 'RevokeAccessToken', userId: 1, tokenHash: 'h1' })();
    expect(revoked).toEqual([{ type: 'AccessTokenRevoked', data: { user_id: 1, token_hash: 'h1' } }]);
    given([...registered, ...revoked])
      .when({ type: 'RevokeAccessToken', userId: 1, tokenHash: 'h1' })
      .then([]);
  });
});
