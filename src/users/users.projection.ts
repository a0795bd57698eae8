import { Inject, Injectable } from '@nestjs/common';
import { Role, Scope } from '../access/permissions';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { OrganisationEvent, ORGANISATION_EVENT_TYPES } from './organisation.events';
import { UserEvent, USER_EVENT_TYPES, Retention } from './user.events';

export interface UserRecord {
  id: number;
  email: string;
  tool_limit: number;
  webhook_secret: string;
  /** The organisation the user belongs to; a user from before organisations founded its own, of its id. */
  organisation_id: number;
  /** docs/dialing.md: absent until set (the operator's default applies); null: no floor. */
  quiet_hours?: { start: string; end: string } | null;
  /** docs/privacy.md; absent: every value kept. `retains` is set while any kind is kept for a while (the retention sweep's index). */
  retention?: Retention;
  retains?: boolean;
  created_at: string;
}

export interface AccessTokenRecord {
  token_hash: string;
  user_id: number;
  revoked: boolean;
}

/** A user's place in its organisation; gone once removed. */
export interface MemberRecord {
  user_id: number;
  organisation_id: number;
  email: string;
  role: Role;
  created_at: string;
}

export interface ApiKeyRecord {
  id: number;
  organisation_id: number;
  name: string;
  scopes: Scope[];
  prefix: string;
  token_hash: string;
  created_by: number;
  created_at: string;
  expires_at: string | null;
}

@Projection()
@Injectable()
export class UsersProjection implements ReadModelProjection {
  readonly name = 'users';
  /** 2: organisations and their members (docs/teams.md); 3: webhook secrets sealed (docs/privacy.md). */
  readonly version = 3;
  readonly collections = ['users', 'access_tokens', 'members', 'api_keys'];
  readonly eventTypes = [...USER_EVENT_TYPES, ...ORGANISATION_EVENT_TYPES];
  readonly users: Collection<UserRecord>;
  readonly tokens: Collection<AccessTokenRecord>;
  readonly members: Collection<MemberRecord>;
  readonly apiKeys: Collection<ApiKeyRecord>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.users = store.collection<UserRecord>('users', { indexes: [{ fields: ['email'] }, { fields: ['retains'] }] });
    this.tokens = store.collection<AccessTokenRecord>('access_tokens');
    this.members = store.collection<MemberRecord>('members', { indexes: [{ fields: ['organisation_id', 'user_id'] }] });
    this.apiKeys = store.collection<ApiKeyRecord>('api_keys', { indexes: [{ fields: ['token_hash'] }, { fields: ['organisation_id', 'id'] }] });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & (UserEvent | OrganisationEvent);
    const at = recorded.position;
    switch (event.type) {
      case 'UserRegistered': {
        const { user_id, email, tool_limit, webhook_secret, organisation_id } = event.data;
        const record = { id: user_id, email, tool_limit, webhook_secret, organisation_id: organisation_id ?? user_id, created_at: recorded.occurredAt };
        await this.users.upsert(user_id, record, at);
        // A user from before organisations owns the one of its id (its stream is founded later).
        if (organisation_id === undefined)
          await this.members.upsert(user_id, { user_id, organisation_id: user_id, email, role: 'owner', created_at: recorded.occurredAt }, at);
        return;
      }
      case 'AccessTokenIssued':
      case 'AccessTokenRevoked': {
        const { user_id, token_hash } = event.data;
        await this.tokens.upsert(token_hash, { token_hash, user_id, revoked: event.type === 'AccessTokenRevoked' }, at);
        return;
      }
      case 'UserQuietHoursSet': {
        const user = await this.users.get(event.data.user_id);
        if (user) await this.users.upsert(user.id, { ...user, quiet_hours: event.data.quiet_hours }, at);
        return;
      }
      case 'UserRetentionSet': {
        const user = await this.users.get(event.data.user_id);
        const { retention } = event.data;
        const retains = Object.values(retention).some((days) => days !== null);
        if (user) await this.users.upsert(user.id, { ...user, retention, retains }, at);
        return;
      }
      case 'OrganisationFounded': {
        const { organisation_id, owner_user_id, email } = event.data;
        await this.members.upsert(owner_user_id, { user_id: owner_user_id, organisation_id, email, role: 'owner', created_at: recorded.occurredAt }, at);
        return;
      }
      case 'MemberAdded': {
        const { organisation_id, user_id, email, role } = event.data;
        await this.members.upsert(user_id, { user_id, organisation_id, email, role, created_at: recorded.occurredAt }, at);
        return;
      }
      case 'MemberRoleChanged': {
        const member = await this.members.get(event.data.user_id);
        if (member) await this.members.upsert(member.user_id, { ...member, role: event.data.role }, at);
        return;
      }
      case 'MemberRemoved':
        await this.members.delete(event.data.user_id, at);
        return;
      case 'ApiKeyCreated': {
        const { key_id, organisation_id, name, scopes, prefix, token_hash, created_by, expires_at } = event.data;
        const record = { id: key_id, organisation_id, name, scopes, prefix, token_hash, created_by, created_at: recorded.occurredAt, expires_at };
        await this.apiKeys.upsert(key_id, record, at);
        return;
      }
      case 'ApiKeyRevoked':
        await this.apiKeys.delete(event.data.key_id, at);
        return;
    }
  }
}
