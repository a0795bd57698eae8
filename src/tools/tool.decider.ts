import { Decider } from '../shared/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { NOT_PUBLIC } from '../infrastructure/outbound/public-targets';
import { OwnedResource, ownedLive as owned } from '../shared/owned-resource';
import { ToolEvent, ToolSpec } from './tool.events';
import { keptSecretHeaders } from '../shared/secrets';

export type ToolCommand =
  /** `endpointPublic`: whether the handler found the endpoint's host public (docs/api.md). */
  | {
      type: 'CreateTool';
      toolId: number;
      organisationId: number;
      tool: Omit<ToolSpec, 'timeout' | 'headers' | 'schema'> & Partial<ToolSpec>;
      endpointPublic: boolean;
    }
  | { type: 'UpdateTool'; toolId: number; organisationId: number; changes: Partial<ToolSpec>; endpointPublic: boolean }
  | { type: 'DeleteTool'; toolId: number; organisationId: number };

export type ToolState = OwnedResource<{ tool: ToolSpec }>;

export const DEFAULT_TOOL_TIMEOUT = 10;

export const planLimitMessage = (limit: number) => `You have reached your plan limit of ${limit} mid call tools. Please upgrade your plan to add more.`;

const endpointNotPublic = () => DomainError.validation('endpoint', NOT_PUBLIC('endpoint'), NOT_PUBLIC('endpoint'));

export const toolDecider: Decider<ToolCommand, ToolState, ToolEvent> = {
  initialState: { exists: false },

  decide(command, state) {
    switch (command.type) {
      case 'CreateTool': {
        if (state.exists) throw new DomainError('conflict', 'Tool already exists');
        if (!command.endpointPublic) throw endpointNotPublic();
        const tool: ToolSpec = { timeout: DEFAULT_TOOL_TIMEOUT, headers: [], schema: [], ...command.tool };
        return [{ type: 'ToolCreated', data: { tool_id: command.toolId, user_id: command.organisationId, tool } }];
      }
      case 'UpdateTool': {
        if (!owned(state, command.organisationId)) throw DomainError.notFound('Tool');
        if (command.changes.endpoint !== undefined && !command.endpointPublic) throw endpointNotPublic();
        const changes = command.changes.headers
          ? { ...command.changes, headers: keptSecretHeaders(command.changes.headers, state.tool.headers) }
          : command.changes;
        return [{ type: 'ToolUpdated', data: { tool_id: command.toolId, user_id: command.organisationId, changes } }];
      }
      case 'DeleteTool':
        if (!owned(state, command.organisationId)) throw DomainError.notFound('Tool');
        return [{ type: 'ToolDeleted', data: { tool_id: command.toolId, user_id: command.organisationId } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ToolCreated':
        return { exists: true, organisationId: event.data.user_id, deleted: false, tool: event.data.tool };
      case 'ToolUpdated':
        return state.exists ? { ...state, tool: { ...state.tool, ...event.data.changes } } : state;
      case 'ToolDeleted':
        return state.exists ? { ...state, deleted: true } : state;
    }
  },
};
