import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { isoMicros } from '../../shared/formats';
import { ERASURE_EVENT_TYPES, ErasureEvent } from './erasure.events';

export interface ErasureDocument {
  id: number;
  user_id: number;
  status: 'pending' | 'done';
  requested_at: string;
  completed_at: string | null;
}

export const erasureView = ({ id, status, requested_at, completed_at }: ErasureDocument) => ({ id, status, requested_at, completed_at });

/** docs/privacy.md: each erasure and whether it is done (no number: an erasure names none once done). */
@Projection()
@Injectable()
export class ErasuresProjection implements ReadModelProjection {
  readonly name = 'erasures';
  readonly collections = ['erasures'];
  readonly eventTypes = ERASURE_EVENT_TYPES;
  readonly erasures: Collection<ErasureDocument>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.erasures = store.collection<ErasureDocument>('erasures');
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & ErasureEvent;
    if (event.type === 'SubjectErasureRequested') {
      const { erasure_id: id, user_id, requested_at } = event.data;
      await this.erasures.upsert(id, { id, user_id, status: 'pending', requested_at: isoMicros(requested_at), completed_at: null }, recorded.position);
    } else if (event.type === 'SubjectErasureFinished') {
      const current = await this.erasures.get(event.data.erasure_id);
      if (current) await this.erasures.upsert(current.id, { ...current, status: 'done', completed_at: isoMicros(event.data.finished_at) }, recorded.position);
    }
  }
}
