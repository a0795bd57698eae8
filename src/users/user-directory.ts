import { Injectable } from '@nestjs/common';
import { AuthenticatedUser, AccessTokenVerifier } from '../access/access-token-verifier';
import { Clock } from '../shared/clock';
import { API_KEY_PREFIX } from './access-token';
import { ApiKeyUsage } from './api-key-usage';
import { ApiKeyRecord, UsersProjection } from './users.projection';

/**
 * Answers the guard's question "who is this?" from the users read models, at every request:
 * a revoked token or key, a removed member or a changed role counts from the next request on,
 * on every instance reading the same store.
 */
@Injectable()
export class UserDirectory extends AccessTokenVerifier {
  constructor(
    private readonly projection: UsersProjection,
    private readonly usage: ApiKeyUsage,
    private readonly clock: Clock,
  ) {
    super();
  }

  async userForToken(token: string, tokenHash: string): Promise<AuthenticatedUser | null> {
    if (token.startsWith(API_KEY_PREFIX)) return this.keyHolder(tokenHash);
    const found = await this.projection.tokens.get(tokenHash);
    return found && !found.revoked ? this.member(found.user_id) : null;
  }

  /** A key acts as its creator, in the creator's role now, within its scopes. */
  private async keyHolder(tokenHash: string): Promise<AuthenticatedUser | null> {
    const [key] = await this.projection.apiKeys.find({ token_hash: tokenHash }, { limit: 1 });
    if (!key || this.expired(key)) return null;
    const creator = await this.member(key.created_by, { id: key.id, scopes: key.scopes, expiresAt: key.expires_at });
    if (!creator || creator.organisationId !== key.organisation_id) return null;
    this.usage.used(key.id);
    return creator;
  }

  private expired(key: ApiKeyRecord): boolean {
    return key.expires_at !== null && Date.parse(key.expires_at) <= this.clock.now().getTime();
  }

  private async member(userId: number, apiKey?: AuthenticatedUser['apiKey']): Promise<AuthenticatedUser | null> {
    const [user, member] = await Promise.all([this.projection.users.get(userId), this.projection.members.get(userId)]);
    if (!user || !member) return null;
    // The organisation's plan limit and webhook secret are its founder's.
    const organisation = member.organisation_id === user.id ? user : await this.projection.users.get(member.organisation_id);
    if (!organisation) return null;
    return {
      id: user.id,
      email: user.email,
      organisationId: member.organisation_id,
      role: member.role,
      toolLimit: organisation.tool_limit,
      ...(apiKey ? { apiKey } : {}),
    };
  }
}
