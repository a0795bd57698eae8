import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../infrastructure/read-store/document-store.port';
import { UserEvent, USER_EVENT_TYPES } from './user.events';

export interface UserRecord {
  id: number;
  email: string;
  tool_limit: number;
  webhook_secret: string;
  /** Contract §13: absent until set (the operator's default applies); null: no floor. */
  quiet_hours?: { start: string; end: string } | null;
  created_at: string;
}

export interface AccessTokenRecord {
  token_hash: string;
  user_id: number;
  revoked: boolean;
}

@Projection()
@Injectable()
export class UsersProjection implements ReadModelProjection {
  readonly name = 'users';
  readonly collections = ['users', 'access_tokens'];
  readonly eventTypes = USER_EVENT_TYPES;
  readonly users: Collection<UserRecord>;
  readonly tokens: Collection<AccessTokenRecord>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.users = store.collection<UserRecord>('users', { indexes: [{ fields: ['email'] }] });
    this.tokens = store.collection<AccessTokenRecord>('access_tokens');
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & UserEvent;
    switch (event.type) {
      case 'UserRegistered': {
        const { user_id, email, tool_limit, webhook_secret } = event.data;
        await this.users.upsert(user_id, { id: user_id, email, tool_limit, webhook_secret, created_at: recorded.occurredAt }, recorded.position);
        return;
      }
      case 'AccessTokenIssued':
      case 'AccessTokenRevoked': {
        const { user_id, token_hash } = event.data;
        await this.tokens.upsert(token_hash, { token_hash, user_id, revoked: event.type === 'AccessTokenRevoked' }, recorded.position);
        return;
      }
      case 'UserQuietHoursSet': {
        const user = await this.users.get(event.data.user_id);
        if (user) await this.users.upsert(user.id, { ...user, quiet_hours: event.data.quiet_hours }, recorded.position);
        return;
      }
    }
  }
}
