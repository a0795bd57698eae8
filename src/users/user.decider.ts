import { Decider } from '../shared/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { KEEP_ALL, QuietHours, Retention, UserEvent } from './user.events';

/** docs/dialing.md: the floor a user may only narrow. */
export const QUIET_HOURS_FLOOR: QuietHours = { start: '08:00', end: '21:00' };
export const QUIET_HOURS_OUTSIDE_FLOOR = `The quiet hours field must stay within ${QUIET_HOURS_FLOOR.start}-${QUIET_HOURS_FLOOR.end}.`;

export type UserCommand =
  | { type: 'RegisterUser'; userId: number; organisationId: number; email: string; toolLimit: number; webhookSecret: string; tokenHash: string }
  | { type: 'IssueAccessToken'; userId: number; tokenHash: string }
  | { type: 'RevokeAccessToken'; userId: number; tokenHash: string }
  /** `by: 'user'` may only narrow the floor; the operator may set any range, or none. */
  | { type: 'SetQuietHours'; userId: number; quietHours: QuietHours | null; by: 'user' | 'operator' }
  /** Each kind given is set; those left out keep their value. */
  | { type: 'SetRetention'; userId: number; retention: Partial<Retention> };

export interface UserState {
  registered: boolean;
  activeTokens: ReadonlySet<string>;
  retention: Retention;
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: { registered: false, activeTokens: new Set(), retention: KEEP_ALL },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser':
        if (state.registered) throw new DomainError('conflict', 'User already exists');
        return [
          {
            type: 'UserRegistered',
            data: {
              user_id: command.userId,
              email: command.email,
              tool_limit: command.toolLimit,
              webhook_secret: command.webhookSecret,
              organisation_id: command.organisationId,
            },
          },
          { type: 'AccessTokenIssued', data: { user_id: command.userId, token_hash: command.tokenHash } },
        ];
      case 'IssueAccessToken':
        if (!state.registered) throw DomainError.notFound('User');
        return [{ type: 'AccessTokenIssued', data: { user_id: command.userId, token_hash: command.tokenHash } }];
      case 'RevokeAccessToken':
        if (!state.registered) throw DomainError.notFound('User');
        if (!state.activeTokens.has(command.tokenHash)) return [];
        return [{ type: 'AccessTokenRevoked', data: { user_id: command.userId, token_hash: command.tokenHash } }];
      case 'SetQuietHours': {
        if (!state.registered) throw DomainError.notFound('User');
        const hours = command.quietHours;
        if (hours !== null && hours.start >= hours.end)
          throw DomainError.validation('quiet_hours', 'The quiet hours end must be a time after their start.', 'Validation failed');
        const outside = hours === null || hours.start < QUIET_HOURS_FLOOR.start || hours.end > QUIET_HOURS_FLOOR.end;
        if (command.by === 'user' && outside) throw DomainError.validation('quiet_hours', QUIET_HOURS_OUTSIDE_FLOOR, 'Validation failed');
        return [{ type: 'UserQuietHoursSet', data: { user_id: command.userId, quiet_hours: hours, by: command.by } }];
      }
      case 'SetRetention': {
        if (!state.registered) throw DomainError.notFound('User');
        const retention = { ...state.retention, ...command.retention };
        if (JSON.stringify(retention) === JSON.stringify(state.retention)) return [];
        return [{ type: 'UserRetentionSet', data: { user_id: command.userId, retention } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, registered: true };
      case 'AccessTokenIssued':
        return { ...state, activeTokens: new Set([...state.activeTokens, event.data.token_hash]) };
      case 'AccessTokenRevoked': {
        const activeTokens = new Set(state.activeTokens);
        activeTokens.delete(event.data.token_hash);
        return { ...state, activeTokens };
      }
      case 'UserQuietHoursSet':
        return state;
      case 'UserRetentionSet':
        return { ...state, retention: event.data.retention };
    }
  },
};
