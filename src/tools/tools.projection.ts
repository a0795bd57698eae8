import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { isoMicros } from '../shared/formats';
import { ToolEvent, ToolSpec, TOOL_EVENT_TYPES } from './tool.events';
import { hiddenHeaders } from '../shared/secrets';

export interface ToolRecord extends ToolSpec {
  id: number;
  user_id: number;
  created_at: string;
  updated_at: string;
}

@Projection()
@Injectable()
export class ToolsProjection implements ReadModelProjection {
  readonly name = 'tools';
  /** 2: header values sealed (docs/privacy.md). */
  readonly version = 2;
  readonly collections = ['tools'];
  readonly eventTypes = TOOL_EVENT_TYPES;
  readonly tools: Collection<ToolRecord>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.tools = store.collection<ToolRecord>('tools', { indexes: [{ fields: ['user_id', 'id'] }] });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & ToolEvent;
    const at = isoMicros(recorded.occurredAt);
    switch (event.type) {
      case 'ToolCreated': {
        const { tool_id, user_id, tool } = event.data;
        await this.tools.upsert(tool_id, { id: tool_id, user_id, ...tool, created_at: at, updated_at: at }, recorded.position);
        return;
      }
      case 'ToolUpdated': {
        const current = await this.tools.get(event.data.tool_id);
        if (current) await this.tools.upsert(current.id, { ...current, ...event.data.changes, updated_at: at }, recorded.position);
        return;
      }
      case 'ToolDeleted':
        await this.tools.delete(event.data.tool_id, recorded.position);
        return;
    }
  }
}

/** What the API shows of a tool (docs/api.md); header values only as `[secret]` (docs/teams.md). */
export function toolView({ user_id: _owner, ...tool }: ToolRecord) {
  return {
    id: tool.id,
    name: tool.name,
    description: tool.description,
    endpoint: tool.endpoint,
    method: tool.method,
    timeout: tool.timeout,
    headers: hiddenHeaders(tool.headers),
    schema: tool.schema,
    created_at: tool.created_at,
    updated_at: tool.updated_at,
  };
}
