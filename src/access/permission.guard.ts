import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticatedRequest } from './bearer-auth.guard';
import { Permission, PERMISSION_KEY, forbidden, roleAtLeast } from './permissions';

/**
 * The one place a request's permission is decided (docs/teams.md): the route's declared role
 * against the member's role now, and for an API key its scopes too. A route that declares
 * nothing is refused to everyone.
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  private readonly logger = new Logger('Permissions');

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const needed = this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION_KEY, [context.getHandler(), context.getClass()]);
    const user = context.switchToHttp().getRequest<AuthenticatedRequest>().user!;
    if (!needed) {
      this.logger.error(`${context.getClass().name}.${context.getHandler().name} declares no permission`);
      throw forbidden();
    }
    if (!roleAtLeast(user.role, needed.role)) throw forbidden();
    if (user.apiKey && !user.apiKey.scopes.includes(needed.scope)) throw forbidden(needed.scope);
    return true;
  }
}
