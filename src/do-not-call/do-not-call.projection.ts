import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../infrastructure/read-store/document-store.port';
import { isoMicros } from '../shared/formats';
import { DO_NOT_CALL_EVENT_TYPES, DoNotCallEvent, ListingSource } from './do-not-call.events';

export interface DoNotCallEntry {
  user_id: number;
  phone_number: string;
  reason: string | null;
  source: ListingSource;
  created_at: string;
  /** The position of the event that listed it: the list's order, newest first. */
  listed_at_position: number;
}

export const entryId = (organisationId: number, e164: string) => `${organisationId}:${e164}`;

@Projection()
@Injectable()
export class DoNotCallProjection implements ReadModelProjection {
  readonly name = 'do_not_call';
  readonly collections = ['do_not_call'];
  readonly eventTypes = DO_NOT_CALL_EVENT_TYPES;
  readonly entries: Collection<DoNotCallEntry>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.entries = store.collection<DoNotCallEntry>('do_not_call', {
      indexes: [{ fields: ['user_id', 'listed_at_position'] }, { fields: ['user_id', 'phone_number'] }],
    });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & DoNotCallEvent;
    if (event.type === 'NumbersAddedToDoNotCall') {
      const { user_id, phone_numbers, reason, source } = event.data;
      const created_at = isoMicros(recorded.occurredAt);
      for (const phone_number of phone_numbers) {
        const entry = { user_id, phone_number, reason, source, created_at, listed_at_position: recorded.position };
        await this.entries.upsert(entryId(user_id, phone_number), entry, recorded.position);
      }
    } else {
      await this.entries.delete(entryId(event.data.user_id, event.data.phone_number), recorded.position);
    }
  }
}
