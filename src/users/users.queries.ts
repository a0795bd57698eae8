import { Injectable } from '@nestjs/common';
import { UserRecord, UsersProjection } from './users.projection';

/** What other features read of users. */
@Injectable()
export class UsersQueries {
  constructor(private readonly projection: UsersProjection) {}

  get(id: number): Promise<UserRecord | null> {
    return this.projection.users.get(id);
  }
}
