import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { isoMicros } from '../shared/formats';
import { Sealer } from '../shared/sealing/sealer';
import { ERASED } from '../shared/sealing/personal-fields';
import { SUBJECT_ERASED_TYPES, SubjectErased } from '../shared/sealing/subject-erased.event';
import { DO_NOT_CALL_EVENT_TYPES, DoNotCallEvent, ListingSource, numberKeyOfStream } from './do-not-call.events';

export interface DoNotCallEntry {
  user_id: number;
  /** `[erased]` once the person is erased; the entry stays, found by `number_key`. */
  phone_number: string;
  /** The number's keyed hash (docs/privacy.md). */
  number_key: string;
  reason: string | null;
  source: ListingSource;
  created_at: string;
  /** The position of the event that listed it: the list's order, newest first. */
  listed_at_position: number;
}

export const entryId = (organisationId: number, numberKey: string) => `${organisationId}:${numberKey}`;

/** An organisation one of whose numbers was listed by an erasure: its other numbers need not be looked up for one. */
export interface ErasedInOrganisation {
  user_id: number;
}

@Projection()
@Injectable()
export class DoNotCallProjection implements ReadModelProjection {
  readonly name = 'do_not_call';
  /** 2: entries named by the number's keyed hash; 3: the organisations with an erasure's listing. */
  readonly version = 3;
  readonly collections = ['do_not_call', 'do_not_call_erasures'];
  readonly eventTypes = [...DO_NOT_CALL_EVENT_TYPES, ...SUBJECT_ERASED_TYPES];
  readonly entries: Collection<DoNotCallEntry>;
  readonly erasures: Collection<ErasedInOrganisation>;

  constructor(
    @Inject(READ_STORE) store: DocumentStore,
    private readonly sealer: Sealer,
  ) {
    this.entries = store.collection<DoNotCallEntry>('do_not_call', {
      indexes: [{ fields: ['user_id', 'listed_at_position'] }, { fields: ['user_id', 'phone_number'] }],
    });
    this.erasures = store.collection<ErasedInOrganisation>('do_not_call_erasures');
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    if (recorded.type === 'SubjectErased') {
      // docs/privacy.md: the listing stays, found by its keyed hash; its number reads `[erased]`.
      const { user_id, subject_key } = (recorded as RecordedEvent & SubjectErased).data;
      const entry = await this.entries.get(entryId(user_id, subject_key));
      if (entry) await this.entries.upsert(entryId(user_id, subject_key), { ...entry, phone_number: ERASED }, recorded.position);
      return;
    }
    const event = recorded as RecordedEvent & DoNotCallEvent;
    if (event.type === 'NumbersAddedToDoNotCall') {
      const { user_id, phone_numbers, reason, source } = event.data;
      const created_at = isoMicros(recorded.occurredAt);
      for (const phone_number of phone_numbers) {
        const number_key = this.keyOf(recorded.stream, user_id, phone_number);
        const entry = { user_id, phone_number, number_key, reason, source, created_at, listed_at_position: recorded.position };
        await this.entries.upsert(entryId(user_id, number_key), entry, recorded.position);
      }
      if (source === 'erasure') await this.erasures.add(user_id, { user_id }, recorded.position);
    } else {
      await this.entries.delete(entryId(event.data.user_id, this.keyOf(recorded.stream, event.data.user_id, event.data.phone_number)), recorded.position);
    }
  }

  /** From the stream's name: an erased number reads `[erased]`; streams of earlier stores hold the number itself. */
  private keyOf(stream: string, organisationId: number, e164: string): string {
    return numberKeyOfStream(stream) ?? this.sealer.subjectKeyId(organisationId, e164);
  }
}
