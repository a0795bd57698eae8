import { Injectable } from '@nestjs/common';
import { AppConfig } from '../infrastructure/config/app-config';
import { QuietHours } from './user.events';
import { UserRecord, UsersProjection } from './users.projection';

/** What other features read of users. */
@Injectable()
export class UsersQueries {
  constructor(
    private readonly projection: UsersProjection,
    private readonly config: AppConfig,
  ) {}

  get(id: number): Promise<UserRecord | null> {
    return this.projection.users.get(id);
  }

  /** The user's quiet hours (docs/dialing.md): their own, else the operator's default; null: no floor. */
  async quietHours(id: number): Promise<QuietHours | null> {
    const user = await this.projection.users.get(id);
    return user?.quiet_hours === undefined ? this.config.defaultQuietHours : user.quiet_hours;
  }
}
