import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { AuthenticatedRequest } from './bearer-auth.guard';

/**
 * RATE_LIMIT_PER_MINUTE requests per token across every route (not per route, which is
 * the library's default key). Runs after the bearer guard, which sets the token hash.
 */
@Injectable()
export class TokenRateLimitGuard extends ThrottlerGuard {
  /**
   * The module's limits as configured: no route sets its own (no `@Throttle` or `@SkipThrottle`
   * in this service), so the library's six look-ups of route metadata a request are skipped;
   * counting, headers and the 429 stay its own.
   */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    for (const throttler of this.throttlers) {
      const limit = throttler.limit as number;
      const ttl = throttler.ttl as number;
      const blockDuration = (throttler.blockDuration as number | undefined) ?? ttl;
      await this.handleRequest({
        context,
        limit,
        ttl,
        blockDuration,
        throttler,
        getTracker: this.commonOptions.getTracker!,
        generateKey: this.commonOptions.generateKey!,
      });
    }
    return true;
  }

  protected override async getTracker(req: Record<string, any>): Promise<string> {
    return (req as AuthenticatedRequest).tokenHash ?? String(req.ip);
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}`;
  }
}
