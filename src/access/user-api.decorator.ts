import { CanActivate, Controller, ExecutionContext, Injectable, UseGuards, applyDecorators, createParamDecorator } from '@nestjs/common';
import { actFor } from '../shared/event-sourcing/actor';
import { AuthenticatedUser, actorOfUser } from './access-token-verifier';
import { AuthenticatedRequest, BearerAuthGuard } from './bearer-auth.guard';
import { PermissionGuard } from './permission.guard';
import { TokenRateLimitGuard } from './token-rate-limit.guard';

/**
 * Names the caller in the request's scope (opened for every request, see request-scopes.ts):
 * every event the handler writes is stamped with the caller's organisation and the caller as
 * its actor (docs/teams.md). A guard, not an interceptor: Nest's interceptor chain cost about
 * a fifth of a lead creation's main thread (bench/README.md).
 */
@Injectable()
export class CallerContextGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const user = context.switchToHttp().getRequest<AuthenticatedRequest>().user!;
    actFor({ organisationId: user.organisationId, actor: actorOfUser(user) });
    return true;
  }
}

/**
 * A controller under /api/user: every route needs a valid bearer token, is rate limited per
 * token, needs the permission it declares with `Permit`, and writes events as its caller (named
 * last, once the caller may act).
 */
export const UserApi = () => applyDecorators(Controller('api/user'), UseGuards(BearerAuthGuard, TokenRateLimitGuard, PermissionGuard, CallerContextGuard));

/** The caller the bearer token stands for. */
export const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticatedUser => context.switchToHttp().getRequest<AuthenticatedRequest>().user!,
);
