import { Decider } from '../infrastructure/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { UserEvent } from './user.events';

export type UserCommand =
  | { type: 'RegisterUser'; userId: number; email: string; toolLimit: number; webhookSecret: string; tokenHash: string }
  | { type: 'IssueAccessToken'; userId: number; tokenHash: string }
  | { type: 'RevokeAccessToken'; userId: number; tokenHash: string };

export interface UserState {
  registered: boolean;
  activeTokens: ReadonlySet<string>;
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: { registered: false, activeTokens: new Set() },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser':
        if (state.registered) throw new DomainError('conflict', 'User already exists');
        return [
          {
            type: 'UserRegistered',
            data: { user_id: command.userId, email: command.email, tool_limit: command.toolLimit, webhook_secret: command.webhookSecret },
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
    }
  },
};
