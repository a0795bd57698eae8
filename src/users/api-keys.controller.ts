import { Body, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique } from 'class-validator';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { Permit, SCOPES, Scope } from '../access/permissions';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { Clock } from '../shared/clock';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { Arr, Iso8601, MaxLen, Nullable, OneOf, Required, Rules, Str } from '../shared/validation/rules';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { ApiKeyUsage } from './api-key-usage';
import { OrganisationCommands } from './commands/organisation-commands';
import { ApiKeyRecord, UsersProjection } from './users.projection';

export class CreateApiKeyDto {
  @Rules(Required(), Str(), MaxLen(255)) name!: string;
  // Decorators register bottom-up and the first registered failure is reported: the type check goes last.
  @ArrayNotEmpty({ message: 'The :attribute field must have at least 1 items.' })
  @ArrayMaxSize(SCOPES.length, { message: `The :attribute field must not have more than ${SCOPES.length} items.` })
  @ArrayUnique({ message: 'The :attribute field has a duplicate value.' })
  @Rules(Required(), Arr(), OneOf(SCOPES, true))
  scopes!: Scope[];
  @Nullable() @Rules(Iso8601()) expires_at?: string | null;
}

const view = (key: ApiKeyRecord, lastUsedAt: string | null) => ({
  id: key.id,
  name: key.name,
  scopes: key.scopes,
  prefix: key.prefix,
  created_by: key.created_by,
  created_at: key.created_at,
  expires_at: key.expires_at,
  last_used_at: lastUsedAt,
});

/** docs/teams.md: the organisation's API keys; a key's token is shown once, at its creation. */
@UserApi()
export class ApiKeysController {
  constructor(
    private readonly organisations: OrganisationCommands,
    private readonly read: UsersProjection,
    private readonly usage: ApiKeyUsage,
    private readonly clock: Clock,
  ) {}

  @Get('api-keys')
  @Permit('read', 'admin')
  async list(@CurrentUser() user: AuthenticatedUser) {
    const keys = await this.read.apiKeys.find({ organisation_id: user.organisationId }, { sort: [['id', 'asc']] });
    const lastUsed = await this.usage.lastUsed(keys.map((key) => key.id));
    return keys.map((key) => view(key, lastUsed.get(key.id) ?? null));
  }

  @Post('api-keys')
  @Permit('members:write')
  @HttpCode(201)
  async create(@CurrentUser() user: AuthenticatedUser, @Body(new AppValidationPipe()) body: CreateApiKeyDto) {
    const expiresAt = body.expires_at ? new Date(body.expires_at).toISOString() : null;
    if (expiresAt && expiresAt <= this.clock.now().toISOString()) throw DomainError.validation('expires_at', 'The expires at field must be a date after now.');
    const { keyId, token } = await this.organisations.createApiKey(user, body.name, body.scopes, expiresAt);
    const key = (await this.read.apiKeys.get(keyId))!;
    return { message: 'API key created successfully.', data: { ...view(key, null), token } };
  }

  @Delete('api-keys/:id')
  @Permit('members:write')
  async revoke(@CurrentUser() user: AuthenticatedUser, @IdParam('API key') id: number) {
    await this.organisations.revokeApiKey(user, id);
    return { message: 'API key deleted successfully' };
  }
}
