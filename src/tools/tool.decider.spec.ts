import { fold } from '../shared/event-sourcing/decider';
import { ToolCommand, toolDecider } from './tool.decider';
import { ToolEvent } from './tool.events';
import { deciderSpec } from '../testing/decider-spec';
import { refusalOf } from '../testing/refusal';

const now = new Date('2025-01-01T00:00:00Z');
const given = (events: ToolEvent[]) => ({ when: (c: ToolCommand) => () => toolDecider.decide(c, fold(toolDecider, events), now) });
const spec = { name: 'lookup', description: 'Looks up', endpoint: 'https://x.io', method: 'GET' as const };
const created: ToolEvent = {
  type: 'ToolCreated',
  data: { tool_id: 1, user_id: 7, tool: { ...spec, timeout: 10, headers: [], schema: [] } },
};

describe('tool decider', () => {
  it('creates a tool with the default timeout, no headers and no schema', () => {
    expect(given([]).when({ type: 'CreateTool', toolId: 1, organisationId: 7, tool: spec, endpointPublic: true })()).toEqual([created]);
  });

  it('updates only what is given, for the owner only', () => {
    const events = given([created]).when({ type: 'UpdateTool', toolId: 1, organisationId: 7, changes: { timeout: 5 }, endpointPublic: true })();
    const state = fold(toolDecider, [created, ...events]);
    expect(state).toMatchObject({ tool: { ...spec, timeout: 5 } });
    expect(given([created]).when({ type: 'UpdateTool', toolId: 1, organisationId: 8, changes: {}, endpointPublic: true })).toThrow('Tool not found');
  });

  it('keeps a header value written back as [secret], as answers show it; a new value replaces it', () => {
    const withKey: ToolEvent = {
      ...created,
      data: { ...created.data, tool: { ...created.data.tool, headers: [{ name: 'Authorization', value: 'Bearer t' }] } },
    } as ToolEvent;
    const headers = [
      { name: 'Authorization', value: '[secret]' },
      { name: 'X-New', value: 'n' },
    ];
    const events = given([withKey]).when({ type: 'UpdateTool', toolId: 1, organisationId: 7, changes: { headers }, endpointPublic: true })();
    expect(fold(toolDecider, [withKey, ...events])).toMatchObject({
      tool: {
        headers: [
          { name: 'Authorization', value: 'Bearer t' },
          { name: 'X-New', value: 'n' },
        ],
      },
    });
  });

  it('deletes once; a deleted tool is not found afterwards', () => {
    const deleted = given([created]).when({ type: 'DeleteTool', toolId: 1, organisationId: 7 })();
    expect(deleted).toEqual([{ type: 'ToolDeleted', data: { tool_id: 1, user_id: 7 } }]);
    expect(given([created, ...deleted]).when({ type: 'DeleteTool', toolId: 1, organisationId: 7 })).toThrow('Tool not found');
    expect(given([created, ...deleted]).when({ type: 'UpdateTool', toolId: 1, organisationId: 7, changes: {}, endpointPublic: true })).toThrow(
      'Tool not found',
    );
  });
});

describe('tool decider: endpoints (docs/api.md)', () => {
  const { given: on } = deciderSpec(toolDecider);
  const notPublic = (error: unknown) =>
    refusalOf(() => {
      throw error;
    }).errors?.endpoint?.[0] === 'The endpoint field must point to a public address.';
  it('refuses an endpoint the handler found not public, on create and on an update that changes it', () => {
    on([]).when({ type: 'CreateTool', toolId: 1, organisationId: 7, tool: spec, endpointPublic: false }).thenThrows(notPublic);
    on([created])
      .when({ type: 'UpdateTool', toolId: 1, organisationId: 7, changes: { endpoint: 'http://10.0.0.1/' }, endpointPublic: false })
      .thenThrows(notPublic);
    on([created])
      .when({ type: 'UpdateTool', toolId: 1, organisationId: 7, changes: { timeout: 3 }, endpointPublic: false })
      .then([{ type: 'ToolUpdated', data: { tool_id: 1, user_id: 7, changes: { timeout: 3 } } }]);
  });
});
