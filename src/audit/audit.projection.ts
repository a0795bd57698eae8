import { Inject, Injectable } from '@nestjs/common';
import { ASSISTANT_EVENT_TYPES, ASSISTANT_PUBLICATION_EVENT_TYPES } from '../assistants/assistant.events';
import { CALL_EVENT_TYPES } from '../calls/call.events';
import { CAMPAIGN_EVENT_TYPES } from '../campaigns/campaign.events';
import { DO_NOT_CALL_EVENT_TYPES } from '../do-not-call/do-not-call.events';
import { Actor, actorOf, organisationOf } from '../shared/event-sourcing/actor';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { LEAD_IMPORT_EVENT_TYPES } from '../lead-imports/lead-import.events';
import { LEAD_EVENT_TYPES } from '../leads/lead.events';
import { PHONE_NUMBER_EVENT_TYPES } from '../phone-numbers/phone-number.events';
import { TOOL_EVENT_TYPES } from '../tools/tool.events';
import { ORGANISATION_EVENT_TYPES } from '../users/organisation.events';
import { USER_EVENT_TYPES } from '../users/user.events';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhook.events';

/** An event of the organisation, named by its position: its values are read from the log when shown (no copy kept). */
export interface AuditEntry {
  position: number;
  organisation_id: number;
  type: string;
  stream: string;
  actor: Actor;
  occurred_at: string;
}

interface StreamOwner {
  stream: string;
  organisation_id: number;
}

/**
 * For events stored before the command runner stamped each with its organisation: streams some
 * of whose events name no organisation (a user's tokens, an assistant's
 * publication, an import's progress): their first event's organisation is kept for the rest.
 */
const STREAMS_WITH_UNNAMED_EVENTS = ['user-', 'assistant-', 'lead_import-'];

/** For events stored before the stamp: the organisation an event names, its own field, else the owning account's id (an organisation's). */
function organisationNamed(event: RecordedEvent): number | undefined {
  const data = event.data as { organisation_id?: unknown; user_id?: unknown } | null;
  if (typeof data?.organisation_id === 'number') return data.organisation_id;
  // A user stream's `user_id` is the person, not the organisation (except in its first event, from before docs/teams.md).
  if (event.stream.startsWith('user-') && event.revision > 0) return undefined;
  return typeof data?.user_id === 'number' ? data.user_id : undefined;
}

/** docs/teams.md: every event of the service's features, by organisation, with its actor. */
@Projection()
@Injectable()
export class AuditProjection implements ReadModelProjection {
  readonly name = 'audit';
  readonly collections = ['audit_entries', 'audit_streams'];
  /** 3: entries name their event, whose values stay in the log alone. */
  readonly version = 3;
  readonly eventTypes = [
    ...USER_EVENT_TYPES,
    ...ORGANISATION_EVENT_TYPES,
    ...ASSISTANT_EVENT_TYPES,
    ...ASSISTANT_PUBLICATION_EVENT_TYPES,
    ...TOOL_EVENT_TYPES,
    ...PHONE_NUMBER_EVENT_TYPES,
    ...CAMPAIGN_EVENT_TYPES,
    ...LEAD_EVENT_TYPES,
    ...LEAD_IMPORT_EVENT_TYPES,
    ...CALL_EVENT_TYPES,
    ...DO_NOT_CALL_EVENT_TYPES,
    ...WEBHOOK_EVENT_TYPES,
  ];
  readonly entries: Collection<AuditEntry>;
  private readonly owners: Collection<StreamOwner>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.entries = store.collection<AuditEntry>('audit_entries', {
      indexes: [
        { fields: ['organisation_id', 'position'] },
        { fields: ['organisation_id', 'type', 'position'] },
        { fields: ['organisation_id', 'actor.type', 'actor.id', 'position'] },
      ],
    });
    this.owners = store.collection<StreamOwner>('audit_streams');
  }

  async apply(event: RecordedEvent): Promise<void> {
    const stamped = organisationOf(event.metadata);
    if (stamped !== undefined) return this.write(event, stamped);
    let organisation_id = organisationNamed(event);
    const keepsOwner = event.revision === 0 && STREAMS_WITH_UNNAMED_EVENTS.some((kind) => event.stream.startsWith(kind));
    if (organisation_id !== undefined && keepsOwner) await this.owners.upsert(event.stream, { stream: event.stream, organisation_id }, event.position);
    organisation_id ??= (await this.owners.get(event.stream))?.organisation_id;
    if (organisation_id !== undefined) await this.write(event, organisation_id);
  }

  private async write(event: RecordedEvent, organisation_id: number): Promise<void> {
    const { position, type, stream, occurredAt: occurred_at } = event;
    await this.entries.add(position, { position, organisation_id, type, stream, actor: actorOf(event.metadata), occurred_at }, position);
  }
}
