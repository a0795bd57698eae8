import { fold } from '../infrastructure/event-sourcing/decider';
import { ToolCommand, toolDecider } from './tool.decider';
import { ToolEvent } from './tool.events';

const now = new Date('2025-01-01T00:00:00Z');
const given = (events: ToolEvent[]) => ({ when: (c: ToolCommand) => () => toolDecider.decide(c, fold(toolDecider, events), now) });
const spec = { name: 'lookup', description: 'Looks up', endpoint: 'https://x.io', method: 'GET' as const };
const created: ToolEvent = {
  type: 'ToolCreated',
  data: { tool_id: 1, user_id: 7, tool: { ...spec, timeout: 10, headers: [], schema: [] } },
};

describe('tool decider', () => {
  it('creates a tool with the default timeout, no headers and no schema', () => {
    expect(given([]).when({ type: 'CreateTool', toolId: 1, userId: 7, tool: spec })()).toEqual([created]);
  });

  it('updates only what is given, for the owner only', () => {
    const events = given([created]).when({ type: 'UpdateTool', toolId: 1, userId: 7, changes: { timeout: 5 } })();
    const state = fold(toolDecider, [created, ...events]);
    expect(state).toMatchObject({ tool: { ...spec, timeout: 5 } });
    expect(given([created]).when({ type: 'UpdateTool', toolId: 1, userId: 8, changes: {} })).toThrow('Tool not found');
  });

  it('deletes once; a deleted tool is not found afterwards', () => {
    const deleted = given([created]).when({ type: 'DeleteTool', toolId: 1, userId: 7 })();
    expect(deleted).toEqual([{ type: 'ToolDeleted', data: { tool_id: 1, user_id: 7 } }]);
    expect(given([created, ...deleted]).when({ type: 'DeleteTool', toolId: 1, userId: 7 })).toThrow('Tool not found');
    expect(given([created, ...deleted]).when({ type: 'UpdateTool', toolId: 1, userId: 7, changes: {} })).toThrow('Tool not found');
  });
});
