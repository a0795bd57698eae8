import { Permit } from '../infrastructure/auth/permissions';
import { Body, Get, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { AuthenticatedUser } from '../infrastructure/auth/access-token-verifier';
import { CurrentUser, UserApi } from '../infrastructure/auth/user-api.decorator';
import { Obj, Pattern, Required, Rules, Str } from '../shared/validation/rules';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { SetQuietHours } from './commands/set-quiet-hours';
import { UsersQueries } from './users.queries';

const HH_MM = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

export class QuietHoursDto {
  @Rules(Required(), Str(), Pattern(HH_MM)) start!: string;
  @Rules(Required(), Str(), Pattern(HH_MM)) end!: string;
}

export class SettingsDto {
  @Rules(Required(), Obj()) @ValidateNested() @Type(() => QuietHoursDto) quiet_hours!: QuietHoursDto;
}

/** docs/dialing.md: the user's dialing settings; their quiet hours hold above every campaign. */
@UserApi()
export class SettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly users: UsersQueries,
  ) {}

  @Permit('read')
  @Get('settings')
  async show(@CurrentUser() user: AuthenticatedUser) {
    return { quiet_hours: await this.users.quietHours(user.organisationId) };
  }

  @Permit('campaigns:write')
  @Put('settings')
  async change(@CurrentUser() user: AuthenticatedUser, @Body(new AppValidationPipe()) body: SettingsDto) {
    await this.commands.execute(new SetQuietHours(user.organisationId, { start: body.quiet_hours.start, end: body.quiet_hours.end }, 'user'));
    return { message: 'Settings updated successfully', data: { quiet_hours: await this.users.quietHours(user.organisationId) } };
  }
}
