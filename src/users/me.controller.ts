import { Get } from '@nestjs/common';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { Permit } from '../access/permissions';
import { CurrentUser, UserApi } from '../access/user-api.decorator';

@UserApi()
export class MeController {
  /** Who the bearer token belongs to: the member, its organisation and role (and the API key, if one was used). */
  @Get('me')
  @Permit('read')
  me(@CurrentUser() user: AuthenticatedUser) {
    return {
      id: user.id,
      email: user.email,
      tool_limit: user.toolLimit,
      organisation_id: user.organisationId,
      role: user.role,
      ...(user.apiKey ? { api_key: { id: user.apiKey.id, scopes: user.apiKey.scopes } } : {}),
    };
  }
}
