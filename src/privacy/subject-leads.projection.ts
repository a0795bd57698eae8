import { ERASED } from '../shared/sealing/personal-fields';
import { SUBJECT_ERASED_TYPES, SubjectErased } from '../shared/sealing/subject-erased.event';
import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { LeadCreated } from '../leads/lead.events';

/** A lead that holds a number as one of its secondary contacts. */
export interface SubjectLead {
  user_id: number;
  phone_number: string;
  lead_id: number;
}

/**
 * docs/privacy.md: which leads hold a number as a secondary contact, so a data subject's leads
 * are found by an index, not by reading every lead of an organisation (a primary number is found
 * through the leads' own index). A lead's secondary contacts are set when it is made.
 */
@Projection()
@Injectable()
export class SubjectLeadsProjection implements ReadModelProjection {
  readonly name = 'subject_leads';
  readonly collections = ['subject_leads'];
  /** 2: entries by contact, erased ones removed. */
  readonly version = 2;
  readonly eventTypes = ['LeadCreated', ...SUBJECT_ERASED_TYPES];
  readonly entries: Collection<SubjectLead>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.entries = store.collection<SubjectLead>('subject_leads', { indexes: [{ fields: ['user_id', 'phone_number'] }] });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & (LeadCreated | SubjectErased);
    if (event.type === 'SubjectErased') {
      for (const { lead_id, contact_id } of event.data.contacts) await this.entries.delete(`${lead_id}:${contact_id}`, recorded.position);
      return;
    }
    const { lead_id, user_id, secondary_contacts } = event.data;
    for (const { id, phone_number } of secondary_contacts) {
      if (phone_number !== ERASED) await this.entries.upsert(`${lead_id}:${id}`, { user_id, phone_number, lead_id }, recorded.position);
    }
  }
}
