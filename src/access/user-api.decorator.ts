import {
  CallHandler,
  Controller,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseGuards,
  UseInterceptors,
  applyDecorators,
  createParamDecorator,
} from '@nestjs/common';
import { Observable } from 'rxjs';
import { inContext } from '../shared/event-sourcing/actor';
import { AuthenticatedUser, actorOfUser } from './access-token-verifier';
import { AuthenticatedRequest, BearerAuthGuard } from './bearer-auth.guard';
import { PermissionGuard } from './permission.guard';
import { TokenRateLimitGuard } from './token-rate-limit.guard';

/** Every event the handler writes is stamped with the caller's organisation and the caller as its actor (docs/teams.md). */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const user = context.switchToHttp().getRequest<AuthenticatedRequest>().user!;
    const request = { organisationId: user.organisationId, actor: actorOfUser(user) };
    return new Observable((subscriber) => inContext(request, () => next.handle().subscribe(subscriber)));
  }
}

/**
 * A controller under /api/user: every route needs a valid bearer token, is rate limited per
 * token, needs the permission it declares with `Permit`, and writes events as its caller.
 */
export const UserApi = () =>
  applyDecorators(Controller('api/user'), UseGuards(BearerAuthGuard, TokenRateLimitGuard, PermissionGuard), UseInterceptors(RequestContextInterceptor));

/** The caller the bearer token stands for. */
export const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticatedUser => context.switchToHttp().getRequest<AuthenticatedRequest>().user!,
);
