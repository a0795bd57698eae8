import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../infrastructure/read-store/document-store.port';
import { WebhookEvent, WebhookKind, WebhookOutcome, WEBHOOK_EVENT_TYPES } from './webhook.events';

export interface WebhookDeliveryDocument {
  id: string;
  call_id: number;
  user_id: number;
  event: WebhookKind;
  url: string;
  payload: Record<string, unknown>;
  attempts: number;
  status: 'pending' | WebhookOutcome;
  /** Epoch ms from which the next attempt may start; null once delivered or given up. The dispatcher's index. */
  next_attempt_at: number | null;
}

@Projection()
@Injectable()
export class WebhookDeliveriesProjection implements ReadModelProjection {
  readonly name = 'webhook_deliveries';
  readonly collections = ['webhook_deliveries'];
  readonly eventTypes = WEBHOOK_EVENT_TYPES;
  readonly deliveries: Collection<WebhookDeliveryDocument>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.deliveries = store.collection<WebhookDeliveryDocument>('webhook_deliveries', {
      indexes: [{ fields: ['next_attempt_at'] }, { fields: ['call_id'] }],
    });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as unknown as WebhookEvent;
    if (event.type === 'WebhookRequested') {
      const { delivery_id: id, call_id, user_id, event: kind, url, payload } = event.data;
      const doc: WebhookDeliveryDocument = {
        id,
        call_id,
        user_id,
        event: kind,
        url,
        payload,
        attempts: 0,
        status: 'pending',
        next_attempt_at: Date.parse(recorded.occurredAt),
      };
      await this.deliveries.upsert(id, doc, recorded.position);
      return;
    }
    if (event.type !== 'WebhookAttemptStarted' && event.type !== 'WebhookAttemptFinished') return;
    const current = await this.deliveries.get(event.data.delivery_id);
    if (!current) return;
    const next =
      event.type === 'WebhookAttemptStarted'
        ? { ...current, attempts: event.data.attempt, next_attempt_at: Date.parse(event.data.lease_until) }
        : {
            ...current,
            status: event.data.outcome,
            next_attempt_at: event.data.next_attempt_at === null ? null : Date.parse(event.data.next_attempt_at),
          };
    await this.deliveries.upsert(current.id, next, recorded.position);
  }
}
