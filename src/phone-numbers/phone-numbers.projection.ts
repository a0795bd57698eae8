import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { isoMicros } from '../shared/formats';
import { PhoneNumberEvent, PHONE_NUMBER_EVENT_TYPES } from './phone-number.events';

export interface PhoneNumberRecord {
  id: number;
  user_id: number;
  phone_number: string;
  label: string | null;
  created_at: string;
}

@Projection()
@Injectable()
export class PhoneNumbersProjection implements ReadModelProjection {
  readonly name = 'phone_numbers';
  readonly collections = ['phone_numbers'];
  readonly eventTypes = PHONE_NUMBER_EVENT_TYPES;
  readonly numbers: Collection<PhoneNumberRecord>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.numbers = store.collection<PhoneNumberRecord>('phone_numbers', {
      indexes: [{ fields: ['user_id', 'phone_number'] }, { fields: ['phone_number'] }],
    });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & PhoneNumberEvent;
    if (event.type === 'PhoneNumberAdded') {
      const { phone_number_id: id, user_id, phone_number, label } = event.data;
      await this.numbers.upsert(id, { id, user_id, phone_number, label, created_at: isoMicros(recorded.occurredAt) }, recorded.position);
    } else if (event.type === 'PhoneNumberRemoved') {
      await this.numbers.delete(event.data.phone_number_id, recorded.position);
    }
  }
}
