import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../infrastructure/read-store/document-store.port';
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
  readonly eventTypes = ['LeadCreated'];
  readonly entries: Collection<SubjectLead>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.entries = store.collection<SubjectLead>('subject_leads', { indexes: [{ fields: ['user_id', 'phone_number'] }] });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const { lead_id, user_id, secondary_contacts } = (recorded as RecordedEvent & LeadCreated).data;
    for (const { phone_number } of secondary_contacts)
      await this.entries.upsert(`${lead_id}:${phone_number}`, { user_id, phone_number, lead_id }, recorded.position);
  }
}
