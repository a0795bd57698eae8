import { Global, Module } from '@nestjs/common';
import { AccessTokenVerifier } from '../access/access-token-verifier';
import { IssueAccessTokenHandler } from './commands/issue-access-token';
import { RegisterUserHandler } from './commands/register-user';
import { RevokeAccessTokenHandler } from './commands/revoke-access-token';
import { UserDirectory } from './user-directory';
import { MeController } from './me.controller';
import { MembersController } from './members.controller';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeyUsage } from './api-key-usage';
import { EmailHolders } from './email-holders';
import { OrganisationCommands } from './commands/organisation-commands';
import { OrganisationFounding } from './commands/organisation-founding';
import { SetQuietHoursHandler } from './commands/set-quiet-hours';
import { SetRetentionHandler } from './commands/set-retention';
import { SettingsController } from './settings.controller';
import { UsersProjection } from './users.projection';
import { UsersQueries } from './users.queries';

/** Global: every feature's controllers need the token verifier behind the bearer guard. */
@Global()
@Module({
  controllers: [MeController, SettingsController, MembersController, ApiKeysController],
  providers: [
    UsersProjection,
    UsersQueries,
    RegisterUserHandler,
    IssueAccessTokenHandler,
    RevokeAccessTokenHandler,
    SetQuietHoursHandler,
    SetRetentionHandler,
    UserDirectory,
    ApiKeyUsage,
    EmailHolders,
    OrganisationFounding,
    OrganisationCommands,
    { provide: AccessTokenVerifier, useExisting: UserDirectory },
  ],
  exports: [AccessTokenVerifier, UsersQueries],
})
export class UsersModule {}
