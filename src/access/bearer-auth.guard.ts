import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AccessTokenVerifier, AuthenticatedUser, hashToken } from './access-token-verifier';

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: AuthenticatedUser;
  tokenHash?: string;
}

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i;

/** Lets a request through only with `Authorization: Bearer <token>` of a known, unrevoked token or API key. */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(private readonly verifier: AccessTokenVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    if (!match) throw new UnauthorizedException();
    const tokenHash = hashToken(match[1]);
    const user = await this.verifier.userForToken(match[1], tokenHash);
    if (!user) throw new UnauthorizedException();
    request.user = user;
    request.tokenHash = tokenHash;
    return true;
  }
}
