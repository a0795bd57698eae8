import { SUBJECT_ERASED_TYPES, SubjectErased, erasedRecord, erasedValues } from '../shared/sealing/subject-erased.event';
import { RETAINED_VALUES_ERASED_TYPES, RetainedValuesErased } from '../shared/sealing/retained-values-erased.event';
import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { RETAINED_CALL_VALUES, WebhookEvent, WebhookKind, WebhookOutcome, WEBHOOK_EVENT_TYPES } from './webhook.events';

/** One attempt as the delivery's detail shows it. */
export interface WebhookAttemptRecord {
  attempt: number;
  status_code: number | null;
  error: string | null;
  outcome: WebhookOutcome;
  at: string;
}

export interface WebhookDeliveryDocument {
  id: string;
  call_id: number | null;
  /** The lead its body shows (`payload.lead.id`), if any: an erasure finds the bodies naming a person by it. */
  lead_id: number | null;
  user_id: number;
  event: WebhookKind;
  url: string;
  payload: Record<string, unknown>;
  attempts: number;
  status: 'pending' | WebhookOutcome;
  /** Epoch ms from which the next attempt may start; null once delivered or given up. The dispatcher's index. */
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  attempt_log: WebhookAttemptRecord[];
}

/** A data subject as an erasure names it: the calls to its number, its leads, and its entries among other leads' secondary contacts. */
export type NamedSubject = Pick<SubjectErased['data'], 'calls' | 'leads' | 'contacts'>;

/** Ids bound to one query, within what SQLite and MongoDB take at once. */
const IDS_A_QUERY = 500;

@Projection()
@Injectable()
export class WebhookDeliveriesProjection implements ReadModelProjection {
  readonly name = 'webhook_deliveries';
  readonly collections = ['webhook_deliveries'];
  readonly eventTypes = [...WEBHOOK_EVENT_TYPES, ...SUBJECT_ERASED_TYPES, ...RETAINED_VALUES_ERASED_TYPES];
  /** 4: the lead a body shows is indexed, so an erasure reads only the bodies about the person (docs/privacy.md). */
  readonly version = 4;
  readonly deliveries: Collection<WebhookDeliveryDocument>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.deliveries = store.collection<WebhookDeliveryDocument>('webhook_deliveries', {
      indexes: [{ fields: ['next_attempt_at'] }, { fields: ['call_id'] }, { fields: ['user_id', 'created_at', 'id'] }, { fields: ['user_id', 'lead_id'] }],
    });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    if (recorded.type === 'SubjectErased') return this.erase((recorded as RecordedEvent & SubjectErased).data, recorded.position);
    if (recorded.type === 'RetainedValuesErased') return this.expire((recorded as RecordedEvent & RetainedValuesErased).data, recorded.position);
    const event = recorded as unknown as WebhookEvent;
    if (event.type === 'WebhookRequested') {
      const { delivery_id: id, call_id, user_id, event: kind, url, payload } = event.data;
      const doc: WebhookDeliveryDocument = {
        id,
        call_id,
        lead_id: (payload.lead as NamedLead | null | undefined)?.id ?? null,
        user_id,
        event: kind,
        url,
        payload,
        attempts: 0,
        status: 'pending',
        next_attempt_at: Date.parse(recorded.occurredAt),
        last_status_code: null,
        last_error: null,
        delivered_at: null,
        created_at: recorded.occurredAt,
        attempt_log: [],
      };
      await this.deliveries.upsert(id, doc, recorded.position);
      return;
    }
    const current = await this.deliveries.get(event.data.delivery_id);
    if (!current) return;
    await this.deliveries.upsert(current.id, next(current, event, recorded.occurredAt), recorded.position);
  }

  /**
   * docs/privacy.md: the bodies sent about an erased person keep their ids, statuses and times,
   * the rest `[erased]`: their calls, their leads, and their entries among another lead's secondary
   * contacts.
   */
  private async erase(subject: SubjectErased['data'], position: number): Promise<void> {
    for (const { delivery, payload } of await this.naming(subject.user_id, subject)) {
      await this.deliveries.upsert(delivery.id, { ...delivery, payload }, position);
    }
  }

  /**
   * The organisation's deliveries whose body names the person, each with that body erased: found
   * by the calls and leads they are about (a body shows a lead whatever call it is about), never by
   * reading every delivery of the organisation.
   */
  async naming(
    organisationId: number,
    { calls, leads, contacts }: NamedSubject,
  ): Promise<Array<{ delivery: WebhookDeliveryDocument; payload: Record<string, unknown> }>> {
    const ids = new Set<string>();
    const leadIds = [...new Set([...leads, ...contacts.map((c) => c.lead_id)])];
    for (const [field, values] of [
      ['call_id', calls],
      ['lead_id', leadIds],
    ] as const) {
      for (let i = 0; i < values.length; i += IDS_A_QUERY) {
        for (const d of await this.deliveries.find({ user_id: organisationId, [field]: { in: values.slice(i, i + IDS_A_QUERY) } })) ids.add(d.id);
      }
    }
    const [ofCalls, ofLeads, ofContacts] = [new Set(calls), new Set(leads), new Set(contacts.map((c) => c.contact_id))];
    // Read again by id: inside a projection batch, `find` may answer a delivery as it was before the batch.
    return (await this.deliveries.getMany([...ids]))
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
      .map((delivery) => ({ delivery, payload: erasedPayload(delivery, ofCalls, ofLeads, ofContacts) }))
      .filter(({ delivery, payload }) => payload !== delivery.payload);
  }

  /** docs/privacy.md: the bodies sent from `from` until `until` keep nothing of their call's values of the kind fallen due. */
  private async expire({ user_id, kind, from, until }: RetainedValuesErased['data'], position: number): Promise<void> {
    const field = Object.entries(RETAINED_CALL_VALUES).find(([, declared]) => declared === `retained:${kind}`)![0];
    for (const delivery of await this.deliveries.find({ user_id, created_at: { gte: from, lt: until } })) {
      const call = delivery.payload.call as Record<string, unknown> | null | undefined;
      if (!call || call[field] === undefined || call[field] === null) continue;
      const payload = { ...delivery.payload, call: { ...call, [field]: erasedValues(call[field]) } };
      await this.deliveries.upsert(delivery.id, { ...delivery, payload }, position);
    }
  }
}

function next(current: WebhookDeliveryDocument, event: WebhookEvent, at: string): WebhookDeliveryDocument {
  switch (event.type) {
    case 'WebhookAttemptStarted':
      return { ...current, attempts: event.data.attempt, next_attempt_at: Date.parse(event.data.lease_until) };
    case 'WebhookAttemptFinished': {
      const { attempt, status_code, error, outcome, next_attempt_at } = event.data;
      return {
        ...current,
        status: outcome,
        next_attempt_at: next_attempt_at === null ? null : Date.parse(next_attempt_at),
        last_status_code: status_code,
        last_error: error,
        delivered_at: outcome === 'delivered' ? at : current.delivered_at,
        attempt_log: [...current.attempt_log, { attempt, status_code, error, outcome, at }],
      };
    }
    case 'WebhookRedeliveryRequested':
      return { ...current, status: 'pending', next_attempt_at: Date.parse(event.data.due_at) };
    default:
      return current;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A delivery as the list shows it (docs/api.md): a retry still due is pending. */
export function deliveryView(doc: WebhookDeliveryDocument) {
  return {
    id: doc.id,
    call_id: doc.call_id,
    event: doc.event,
    url: doc.url,
    status: doc.status === 'retrying' ? 'pending' : doc.status,
    attempts: doc.attempts,
    last_status_code: doc.last_status_code,
    last_error: doc.last_error,
    next_attempt_at: doc.status === 'delivered' || doc.status === 'failed' ? null : iso(doc.next_attempt_at),
    delivered_at: doc.delivered_at,
    created_at: doc.created_at,
  };
}

/** The detail: the list's fields and every attempt. */
export const deliveryDetail = (doc: WebhookDeliveryDocument) => ({ ...deliveryView(doc), attempt_log: doc.attempt_log });

type NamedLead = { id?: number; secondary_contacts?: Array<{ id?: number }> } & Record<string, unknown>;

/** A delivery's body with what it holds of the erased person erased; the same body when it names none of it. */
function erasedPayload(delivery: WebhookDeliveryDocument, calls: Set<number>, leads: Set<number>, contacts: Set<number>): Record<string, unknown> {
  const payload = { ...delivery.payload };
  let changed = false;
  if (payload.call && delivery.call_id !== null && calls.has(delivery.call_id)) {
    payload.call = erasedRecord(payload.call);
    changed = true;
  }
  const lead = payload.lead as NamedLead | null | undefined;
  if (lead) {
    const own = lead.id !== undefined && leads.has(lead.id);
    const named = (lead.secondary_contacts ?? []).some((c) => c.id !== undefined && contacts.has(c.id));
    if (own || named) {
      const { secondary_contacts, ...fields } = lead;
      const erasedContacts = (secondary_contacts ?? []).map((c) => (c.id !== undefined && contacts.has(c.id) ? erasedRecord(c) : c));
      payload.lead = { ...(own ? (erasedRecord(fields) as object) : fields), ...(secondary_contacts ? { secondary_contacts: erasedContacts } : {}) };
      changed = true;
    }
  }
  return changed ? payload : delivery.payload;
}
