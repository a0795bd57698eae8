import { Decider } from '../infrastructure/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { OwnedResource, ownedLive as owned } from '../shared/owned-resource';
import { ToolEvent, ToolSpec } from './tool.events';

export type ToolCommand =
  | { type: 'CreateTool'; toolId: number; userId: number; tool: Omit<ToolSpec, 'timeout' | 'headers' | 'schema'> & Partial<ToolSpec> }
  | { type: 'UpdateTool'; toolId: number; userId: number; changes: Partial<ToolSpec> }
  | { type: 'DeleteTool'; toolId: number; userId: number };

export type ToolState = OwnedResource<{ tool: ToolSpec }>;

export const DEFAULT_TOOL_TIMEOUT = 10;

export const planLimitMessage = (limit: number) =>
  `You have reached your plan limit of ${limit} mid call tools. Please upgrade your plan to add more.`;

export const toolDecider: Decider<ToolCommand, ToolState, ToolEvent> = {
  initialState: { exists: false },

  decide(command, state) {
    switch (command.type) {
      case 'CreateTool': {
        if (state.exists) throw new DomainError('conflict', 'Tool already exists');
        const tool: ToolSpec = { timeout: DEFAULT_TOOL_TIMEOUT, headers: [], schema: [], ...command.tool };
        return [{ type: 'ToolCreated', data: { tool_id: command.toolId, user_id: command.userId, tool } }];
      }
      case 'UpdateTool':
        if (!owned(state, command.userId)) throw DomainError.notFound('Tool');
        return [{ type: 'ToolUpdated', data: { tool_id: command.toolId, user_id: command.userId, changes: command.changes } }];
      case 'DeleteTool':
        if (!owned(state, command.userId)) throw DomainError.notFound('Tool');
        return [{ type: 'ToolDeleted', data: { tool_id: command.toolId, user_id: command.userId } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ToolCreated':
        return { exists: true, userId: event.data.user_id, deleted: false, tool: event.data.tool };
      case 'ToolUpdated':
        return state.exists ? { ...state, tool: { ...state.tool, ...event.data.changes } } : state;
      case 'ToolDeleted':
        return state.exists ? { ...state, deleted: true } : state;
    }
  },
};
