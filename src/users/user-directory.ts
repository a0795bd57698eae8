import { Injectable } from '@nestjs/common';
import { AuthenticatedUser, AccessTokenVerifier } from '../infrastructure/auth/access-token-verifier';
import { UsersProjection } from './users.projection';

/** Answers the guard's question "whose token is this?" from the users read model. */
@Injectable()
export class UserDirectory extends AccessTokenVerifier {
  constructor(private readonly projection: UsersProjection) {
    super();
  }

  async userForTokenHash(tokenHash: string): Promise<AuthenticatedUser | null> {
    const token = await this.projection.tokens.get(tokenHash);
    if (!token || token.revoked) return null;
    const user = await this.projection.users.get(token.user_id);
    return user ? { id: user.id, email: user.email, toolLimit: user.tool_limit, webhookSecret: user.webhook_secret } : null;
  }
}
