import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { isoMicros } from '../shared/formats';
import { AssistantIdentity } from './assistant-record';
import { AssistantEvent, ASSISTANT_EVENT_TYPES } from './assistant.events';
import { AssistantSettings } from './assistant.settings';

export interface AssistantDocument extends AssistantIdentity {
  deleted: boolean;
  settings: AssistantSettings;
}

@Projection()
@Injectable()
export class AssistantsProjection implements ReadModelProjection {
  readonly name = 'assistants';
  readonly collections = ['assistants'];
  readonly eventTypes = ASSISTANT_EVENT_TYPES;
  readonly assistants: Collection<AssistantDocument>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.assistants = store.collection<AssistantDocument>('assistants', {
      indexes: [{ fields: ['user_id', 'deleted', 'id'] }, { fields: ['settings.phone_number_id'] }],
    });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & AssistantEvent;
    const at = isoMicros(recorded.occurredAt);
    if (event.type === 'AssistantCreated') {
      const { assistant_id: id, user_id, uuid, settings } = event.data;
      const doc = { id, user_id, uuid, created_at: at, updated_at: at, deleted_at: null, deleted: false, settings };
      await this.assistants.upsert(id, doc, recorded.position);
      return;
    }
    if (event.type !== 'AssistantUpdated' && event.type !== 'AssistantDeleted') return;
    const current = await this.assistants.get(event.data.assistant_id);
    if (!current) return;
    const next =
      event.type === 'AssistantUpdated'
        ? { ...current, settings: { ...current.settings, ...event.data.changes }, updated_at: at }
        : { ...current, deleted: true, deleted_at: at, updated_at: at };
    await this.assistants.upsert(current.id, next, recorded.position);
  }
}
