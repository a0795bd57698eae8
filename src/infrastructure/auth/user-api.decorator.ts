import { Controller, ExecutionContext, UseGuards, applyDecorators, createParamDecorator } from '@nestjs/common';
import { AuthenticatedUser } from './access-token-verifier';
import { AuthenticatedRequest, BearerAuthGuard } from './bearer-auth.guard';
import { TokenRateLimitGuard } from './token-rate-limit.guard';

/** A controller under /api/user: every route needs a valid bearer token and is rate limited per token. */
export const UserApi = () => applyDecorators(Controller('api/user'), UseGuards(BearerAuthGuard, TokenRateLimitGuard));

/** The user the bearer token belongs to. */
export const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticatedUser => context.switchToHttp().getRequest<AuthenticatedRequest>().user!,
);
