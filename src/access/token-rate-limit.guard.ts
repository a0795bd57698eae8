import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { AuthenticatedRequest } from './bearer-auth.guard';

/**
 * RATE_LIMIT_PER_MINUTE requests per token across every route (not per route, which is
 * the library's default key). Runs after the bearer guard, which sets the token hash.
 */
@Injectable()
export class TokenRateLimitGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, any>): Promise<string> {
    return (req as AuthenticatedRequest).tokenHash ?? String(req.ip);
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}`;
  }
}
