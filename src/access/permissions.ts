import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { DomainError } from '../shared/domain-error';

/** docs/teams.md: roles, weakest first. */
export const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** docs/teams.md: what an API key may be limited to. */
export const SCOPES = [
  'read',
  'assistants:write',
  'tools:write',
  'phone-numbers:write',
  'campaigns:write',
  'leads:write',
  'calls:write',
  'dnc:write',
  'webhooks:write',
  'members:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** What a route needs: a role at least this strong, and (for an API key) this scope. */
export interface Permission {
  scope: Scope;
  role: Role;
}

export const PERMISSION_KEY = 'permission';

/** Reading needs a viewer, changing a resource an editor, managing members and keys an admin. */
const roleFor = (scope: Scope): Role => (scope === 'read' ? 'viewer' : scope === 'members:write' ? 'admin' : 'editor');

/** The OpenAPI extension each route's permission is documented under. */
export const PERMISSION_EXTENSION = 'x-permission';

/** Declares what a route of the user API needs (and documents it); a route without a declaration refuses everyone. */
export const Permit = (scope: Scope, role: Role = roleFor(scope)) =>
  applyDecorators(SetMetadata(PERMISSION_KEY, { scope, role } satisfies Permission), ApiExtension(PERMISSION_EXTENSION, { scope, role }));

export const roleAtLeast = (role: Role, needed: Role) => ROLES.indexOf(role) >= ROLES.indexOf(needed);

export const UNAUTHORIZED = 'This action is unauthorized.';

export const forbidden = (requiredScope?: Scope) =>
  new DomainError('forbidden', UNAUTHORIZED, undefined, requiredScope ? { required_scope: requiredScope } : undefined);
