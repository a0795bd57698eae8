import { Injectable } from '@nestjs/common';
import { UserDefaults } from './user-defaults';
import { KEEP_ALL, QuietHours, Retention } from './user.events';
import { UserRecord, UsersProjection } from './users.projection';

/** What other features read of users. */
@Injectable()
export class UsersQueries {
  constructor(
    private readonly projection: UsersProjection,
    private readonly defaults: UserDefaults,
  ) {}

  get(id: number): Promise<UserRecord | null> {
    return this.projection.users.get(id);
  }

  /** docs/privacy.md: how long the organisation keeps a call's values of each kind. */
  async retention(id: number): Promise<Retention> {
    return (await this.projection.users.get(id))?.retention ?? KEEP_ALL;
  }

  /** The organisations that keep some kind of value for a while only, with when each was registered. */
  async retaining(): Promise<Array<{ id: number; retention: Retention; created_at: string }>> {
    const users = await this.projection.users.find({ retains: true });
    return users.map((user) => ({ id: user.id, retention: user.retention ?? KEEP_ALL, created_at: user.created_at }));
  }

  /** The user's quiet hours (docs/dialing.md): their own, else the operator's default; null: no floor. */
  async quietHours(id: number): Promise<QuietHours | null> {
    const user = await this.projection.users.get(id);
    return user?.quiet_hours === undefined ? this.defaults.quietHours : user.quiet_hours;
  }
}
