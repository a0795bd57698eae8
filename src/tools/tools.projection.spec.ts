import { isoMicros } from '../shared/formats';
import { projectionSpec } from '../testing/projection-spec';
import { ToolsProjection } from './tools.projection';

const spec = { name: 'lookup', description: 'd', endpoint: 'https://tools.example.com', method: 'POST', timeout: 10, headers: [], schema: [] };
const created = (id: number) => ({ type: 'ToolCreated', data: { tool_id: id, user_id: 1, tool: spec } });
const later = '2025-03-01T11:00:00.000Z';

describe('tools projection', () => {
  const { given } = projectionSpec(
    (store) => new ToolsProjection(store),
    (p) => p.tools,
  );

  it('keeps each tool as created, then as changed, until deleted', () =>
    given(
      created(1),
      created(2),
      { type: 'ToolUpdated', data: { tool_id: 1, user_id: 1, changes: { name: 'renamed', timeout: 20 } }, occurredAt: later },
      { type: 'ToolDeleted', data: { tool_id: 2, user_id: 1 } },
    ).then([{ id: 1, user_id: 1, ...spec, name: 'renamed', timeout: 20, created_at: isoMicros('2025-03-01T10:00:00.000Z'), updated_at: isoMicros(later) }]));
});
