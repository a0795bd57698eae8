import { Permit } from '../access/permissions';
import { Body, Get, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { Between, Int, Nullable, Obj, Optional, Pattern, Required, Rules, Str } from '../shared/validation/rules';
import { roleAtLeast, forbidden } from '../access/permissions';
import { SetRetention } from './commands/set-retention';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { SetQuietHours } from './commands/set-quiet-hours';
import { UsersQueries } from './users.queries';

const HH_MM = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

export class QuietHoursDto {
  @Rules(Required(), Str(), Pattern(HH_MM)) start!: string;
  @Rules(Required(), Str(), Pattern(HH_MM)) end!: string;
}

/** docs/privacy.md: days a call's values of each kind are kept (1 to 3,650); null: kept; left out: as it was. */
export class RetentionDto {
  @Nullable() @Rules(Int(), Between(1, 3650)) transcripts_days?: number | null;
  @Nullable() @Rules(Int(), Between(1, 3650)) recordings_days?: number | null;
  @Nullable() @Rules(Int(), Between(1, 3650)) variables_days?: number | null;
}

/** Each setting is optional: one left out keeps its value. */
export class SettingsDto {
  @Optional() @Rules(Obj()) @ValidateNested() @Type(() => QuietHoursDto) quiet_hours?: QuietHoursDto;
  @Optional() @Rules(Obj()) @ValidateNested() @Type(() => RetentionDto) retention?: RetentionDto;
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
    return this.settings(user.organisationId);
  }

  private async settings(organisationId: number) {
    const [quiet_hours, retention] = await Promise.all([this.users.quietHours(organisationId), this.users.retention(organisationId)]);
    return { quiet_hours, retention };
  }

  @Permit('campaigns:write')
  @Put('settings')
  async change(@CurrentUser() user: AuthenticatedUser, @Body(new AppValidationPipe()) body: SettingsDto) {
    // Retention erases values once they fall due: admins and owners only.
    if (body.retention && !roleAtLeast(user.role, 'admin')) throw forbidden();
    if (body.quiet_hours)
      await this.commands.execute(new SetQuietHours(user.organisationId, { start: body.quiet_hours.start, end: body.quiet_hours.end }, 'user'));
    if (body.retention) {
      const given = Object.entries(body.retention).filter(([, days]) => days !== undefined);
      await this.commands.execute(new SetRetention(user.organisationId, Object.fromEntries(given)));
    }
    return { message: 'Settings updated successfully', data: await this.settings(user.organisationId) };
  }
}
