import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../infrastructure/read-store/document-store.port';
import { LeadCreated, LeadPhoneNumberChanged } from '../leads/lead.events';

/** One number a lead holds, as its primary or as a secondary contact. */
export interface SubjectLead {
  user_id: number;
  phone_number: string;
  lead_id: number;
  as: 'primary' | 'secondary';
}

const entryId = (leadId: number, phoneNumber: string) => `${leadId}:${phoneNumber}`;

/**
 * docs/privacy.md: which leads hold a number, as primary or secondary contact, so a data
 * subject's leads are found by an index, not by reading every lead of an organisation.
 */
@Projection()
@Injectable()
export class SubjectLeadsProjection implements ReadModelProjection {
  readonly name = 'subject_leads';
  readonly collections = ['subject_leads', 'subject_lead_primaries'];
  readonly eventTypes = ['LeadCreated', 'LeadPhoneNumberChanged'];
  readonly entries: Collection<SubjectLead>;
  /** Each lead's primary number now, so a change removes the one it replaces. */
  private readonly primaries: Collection<{ lead_id: number; phone_number: string }>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.entries = store.collection<SubjectLead>('subject_leads', { indexes: [{ fields: ['user_id', 'phone_number'] }] });
    this.primaries = store.collection('subject_lead_primaries');
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & (LeadCreated | LeadPhoneNumberChanged);
    const { lead_id, user_id, phone_number } = event.data;
    const position = recorded.position;
    if (event.type === 'LeadCreated') {
      for (const contact of event.data.secondary_contacts)
        await this.entries.upsert(entryId(lead_id, contact.phone_number), { user_id, phone_number: contact.phone_number, lead_id, as: 'secondary' }, position);
    } else {
      const before = await this.primaries.get(lead_id);
      if (before && before.phone_number !== phone_number) await this.entries.delete(entryId(lead_id, before.phone_number), position);
    }
    await this.primaries.upsert(lead_id, { lead_id, phone_number }, position);
    await this.entries.upsert(entryId(lead_id, phone_number), { user_id, phone_number, lead_id, as: 'primary' }, position);
  }
}
