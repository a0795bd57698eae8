import { ERASED } from '../shared/sealing/personal-fields';
import { SUBJECT_ERASED_TYPES, SubjectErased, erasedValues } from '../shared/sealing/subject-erased.event';
import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { LeadReportCounters } from './lead-report';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { sqlDateTime } from '../shared/formats';
import { LeadCreated, LeadEvent, LeadStatus, LeadStopReason, Variables, LEAD_EVENT_TYPES } from './lead.events';
import { shownTimezone } from './lead-zones';

export interface SecondaryContactDocument {
  id: number;
  phone_number: string;
  variables: Variables;
  status: LeadStatus;
  created_at: string;
  updated_at: string;
}

export interface LeadDocument {
  id: number;
  user_id: number;
  campaign_id: number;
  phone_number: string;
  variables: Variables;
  status: LeadStatus;
  /** docs/dialing.md: the zone the lead is dialed in when there is one (given, or its number's only one). */
  timezone: string | null;
  stopped_reason: LeadStopReason | null;
  last_call_status: string | null;
  last_called_at: string | null;
  secondary_contacts: SecondaryContactDocument[];
  deleted: boolean;
  attempts: number;
  in_flight_call_id: number | null;
  /** Whether a call of the lead is in flight: counted per campaign for the dialer's limit. */
  in_flight: boolean;
  /** Epoch ms from which the next call is due. */
  next_due_at: number;
  /** `next_due_at` while the lead can be dialed (created, not deleted, no call in flight), else null: the scheduler's index. */
  dial_due_at: number | null;
  created_at: string;
  updated_at: string;
}

/** The fields derived from the others: what the dialer's index and counts read. */
const withDialing = (doc: LeadDocument): LeadDocument =>
  ({
    ...doc,
    in_flight: doc.in_flight_call_id !== null,
    dial_due_at: doc.status === 'created' && !doc.deleted && doc.in_flight_call_id === null ? doc.next_due_at : null,
  }) as LeadDocument;

@Projection()
@Injectable()
export class LeadsProjection implements ReadModelProjection {
  readonly name = 'leads';
  readonly collections = ['leads', 'lead_report'];
  readonly eventTypes = [...LEAD_EVENT_TYPES, ...SUBJECT_ERASED_TYPES];
  /** 2: `in_flight`; 3: `attempts` (rounds made) and `next_attempt_at` in the stored view; 4: the fields of docs/dialing.md; 5: the report's counters. */
  readonly version = 5;
  readonly leads: Collection<LeadDocument>;
  readonly report: LeadReportCounters;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.report = new LeadReportCounters(store);
    this.leads = store.collection<LeadDocument>('leads', {
      indexes: [
        { fields: ['user_id', 'deleted', 'id'] },
        { fields: ['user_id', 'deleted', 'campaign_id', 'id'] },
        { fields: ['user_id', 'deleted', 'campaign_id', 'status', 'id'] },
        { fields: ['user_id', 'deleted', 'status', 'id'] },
        // The list by number, and the duplicate check (by number within one campaign, which is its user's).
        { fields: ['user_id', 'deleted', 'phone_number', 'campaign_id', 'id'] },
        { fields: ['campaign_id', 'dial_due_at', 'id'] },
        // The calls in flight of every campaign, read once by each pass of the dialer.
        { fields: ['in_flight', 'campaign_id'] },
      ],
      view: leadFields,
    });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    if (recorded.type === 'SubjectErased') return this.erase((recorded as RecordedEvent & SubjectErased).data, recorded.position);
    const event = recorded as unknown as LeadEvent;
    if (event.type === 'LeadCreated') {
      const created = createdLead(event.data, recorded.occurredAt);
      // A lead's first event: its id never held a document, and is not read to find out.
      await this.leads.add(event.data.lead_id, created, recorded.position);
      await this.report.move(null, created, recorded.position);
      return;
    }
    const current = await this.leads.get(event.data.lead_id);
    if (!current) return;
    const at = sqlDateTime(recorded.occurredAt);
    const next = withDialing(evolveDocument(current, event, at, Date.parse(recorded.occurredAt)));
    await this.leads.upsert(current.id, next, recorded.position);
    await this.report.move(current, next, recorded.position);
  }

  private erase(erased: SubjectErased['data'], position: number): Promise<void> {
    return eraseFrom(this.leads, erased, position);
  }
}

/** docs/privacy.md: an erased person's number and variables read `[erased]` where they were a lead's or a contact's; the rest stays. */
async function eraseFrom(leads: Collection<LeadDocument>, { leads: primary, contacts }: SubjectErased['data'], position: number): Promise<void> {
  const contactsOf = new Map<number, Set<number>>();
  for (const { lead_id, contact_id } of contacts) contactsOf.set(lead_id, (contactsOf.get(lead_id) ?? new Set()).add(contact_id));
  for (const lead of await leads.getMany([...new Set([...primary, ...contactsOf.keys()])])) {
    const erased = contactsOf.get(lead.id) ?? new Set<number>();
    const secondary_contacts = lead.secondary_contacts.map((c) =>
      erased.has(c.id) ? { ...c, phone_number: ERASED, variables: erasedValues(c.variables) as Variables } : c,
    );
    const own = primary.includes(lead.id) ? { phone_number: ERASED, variables: erasedValues(lead.variables) as Variables } : {};
    await leads.upsert(lead.id, { ...lead, ...own, secondary_contacts }, position);
  }
}

/** A new lead's document as its creation, recorded at `occurredAt`, makes it: stored by the projection, answered by lead creation. */
export function createdLead(data: LeadCreated['data'], occurredAt: string): LeadDocument {
  const at = sqlDateTime(occurredAt);
  const { lead_id: id, user_id, campaign_id, phone_number, variables, secondary_contacts } = data;
  return withDialing({
    id,
    user_id,
    campaign_id,
    phone_number,
    variables,
    status: 'created',
    timezone: shownTimezone(data),
    stopped_reason: null,
    last_call_status: null,
    last_called_at: null,
    secondary_contacts: secondary_contacts.map((c) => Object.assign({}, c, { status: 'created' as const, created_at: at, updated_at: at })),
    deleted: false,
    attempts: 0,
    in_flight_call_id: null,
    // Set by withDialing. Present already, as in every stored document: V8 copies an object that
    // gains properties on the way (here two) about twenty times slower than one that keeps its own.
    in_flight: false,
    next_due_at: Date.parse(occurredAt),
    dial_due_at: null,
    created_at: at,
    updated_at: at,
  });
}

function evolveDocument(doc: LeadDocument, event: LeadEvent, at: string, atMs: number): LeadDocument {
  const contacts = (change: (c: SecondaryContactDocument) => LeadStatus) =>
    doc.secondary_contacts.map((c) => {
      const status = change(c);
      return status === c.status ? c : { ...c, status, updated_at: at };
    });
  switch (event.type) {
    case 'LeadVariablesMerged':
      return { ...doc, variables: { ...doc.variables, ...event.data.variables }, updated_at: at };
    case 'LeadPhoneNumberChanged':
      return { ...doc, phone_number: event.data.phone_number, timezone: shownTimezone(event.data), updated_at: at };
    case 'LeadMovedToCampaign':
      return { ...doc, campaign_id: event.data.campaign_id, updated_at: at };
    case 'LeadStatusChanged':
      return { ...doc, status: event.data.to, updated_at: at };
    case 'LeadRequeued':
      return { ...doc, status: 'created', stopped_reason: null, attempts: 0, next_due_at: atMs, secondary_contacts: contacts(() => 'created'), updated_at: at };
    case 'LeadDeleted':
      return { ...doc, deleted: true, updated_at: at };
    case 'LeadCallStarted':
      return { ...doc, in_flight_call_id: event.data.call_id };
    case 'LeadCallFinished':
      return { ...doc, in_flight_call_id: null, last_call_status: event.data.call_status, last_called_at: new Date(atMs).toISOString() };
    case 'LeadDialDeferred':
      return { ...doc, next_due_at: Date.parse(event.data.due_at) };
    case 'LeadStopped':
      return { ...doc, status: 'completed', stopped_reason: event.data.reason, updated_at: at };
    case 'LeadReached':
      return {
        ...doc,
        status: 'completed',
        // The round that reached the lead counts as one.
        attempts: doc.attempts + 1,
        secondary_contacts: contacts((c) => (c.id === event.data.secondary_contact_id ? 'completed' : c.status)),
        updated_at: at,
      };
    case 'LeadNextContactDue':
      return { ...doc, next_due_at: Date.parse(event.data.due_at) };
    case 'LeadAttemptFailed':
      return { ...doc, attempts: event.data.attempts, next_due_at: Date.parse(event.data.next_due_at), updated_at: at };
    case 'LeadReachedMaxRetries':
      return {
        ...doc,
        status: 'reached-max-retries',
        attempts: event.data.attempts,
        secondary_contacts: contacts((c) => (c.status === 'created' ? 'reached-max-retries' : c.status)),
        updated_at: at,
      };
    default:
      return doc;
  }
}

/** A lead as the API shows it (docs/api.md). */
export function leadView(doc: LeadDocument, campaign: { id: number; name: string } | null) {
  // Added to the fields as made, not to a copy of them: V8's copy that gains a property is the slow one.
  return Object.assign(leadFields(doc), { campaign: campaignOfLead(campaign) });
}

/** The campaign as a lead shows it; the lead's own fields are stored as its view, this is added when sent. */
export function campaignOfLead(campaign: { id: number; name: string } | null) {
  return campaign ? { id: campaign.id, name: campaign.name } : null;
}

/** What a lead shows of itself: its view but for its campaign. */
export function leadFields(doc: LeadDocument) {
  return {
    id: doc.id,
    campaign_id: doc.campaign_id,
    phone_number: doc.phone_number,
    variables: doc.variables,
    status: doc.status,
    timezone: doc.timezone ?? null,
    stopped_reason: doc.stopped_reason ?? null,
    attempts: doc.attempts,
    // docs/dialing.md: when the next call is due, while one may be placed (not during a call, not once ended).
    next_attempt_at: doc.dial_due_at === null ? null : new Date(doc.dial_due_at).toISOString(),
    last_call_status: doc.last_call_status ?? null,
    last_called_at: doc.last_called_at ?? null,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    secondary_contacts: doc.secondary_contacts.map((c) => ({
      id: c.id,
      phone_number: c.phone_number,
      variables: c.variables,
      status: c.status,
      created_at: c.created_at,
      updated_at: c.updated_at,
    })),
  };
}
