import { Get } from '@nestjs/common';
import { AuthenticatedUser } from '../infrastructure/auth/access-token-verifier';
import { CurrentUser, UserApi } from '../infrastructure/auth/user-api.decorator';

@UserApi()
export class MeController {
  /** Who the bearer token belongs to. */
  @Get('me')
  me(@CurrentUser() user: AuthenticatedUser) {
    return { id: user.id, email: user.email, tool_limit: user.toolLimit };
  }
}
