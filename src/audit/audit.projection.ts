import { Inject, Injectable } from '@nestjs/common';
import { actorOf, organisationOf } from '../shared/event-sourcing/actor';
import { organisationNamedByEvent, ownedByFirstEvent } from '../shared/event-sourcing/unstamped-organisation';
import { AuditEntry, AuditFilter, AuditPage, AuditTrail } from '../shared/ports/audit-trail.port';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, Filter, READ_STORE } from '../shared/ports/document-store.port';
import { AUDITED_EVENT_TYPES } from './audited-events';

/** The projection's collections: emptied beside a log that answers the trail itself. */
export const AUDIT_COLLECTIONS = ['audit_entries', 'audit_streams'];

interface StreamOwner {
  stream: string;
  organisation_id: number;
}

/**
 * docs/teams.md: every event of the service's features, by organisation, with its actor, for an
 * event store that keeps no index of its own to answer the trail from (EventStoreDB).
 */
@Projection()
@Injectable()
export class AuditProjection implements ReadModelProjection, AuditTrail {
  readonly name = 'audit';
  readonly collections = AUDIT_COLLECTIONS;
  /** 3: entries name their event, whose values stay in the log alone; 4: a stream's first event names its owner, stamped or not. */
  readonly version = 4;
  readonly eventTypes = AUDITED_EVENT_TYPES;
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

  /**
   * Filed as the embedded log files it (sqlite-audit-columns.ts): by the command runner's stamp;
   * without one, by the organisation its data names, else its stream's first event's.
   */
  async apply(event: RecordedEvent): Promise<void> {
    const { stream, revision } = event;
    let organisation_id = organisationOf(event.metadata) ?? organisationNamedByEvent(stream, revision, event.data);
    if (ownedByFirstEvent(stream)) {
      if (revision === 0 && organisation_id !== undefined) await this.owners.upsert(stream, { stream, organisation_id }, event.position);
      if (revision > 0) organisation_id ??= (await this.owners.get(stream))?.organisation_id;
    }
    if (organisation_id !== undefined) await this.write(event, organisation_id);
  }

  private async write(event: RecordedEvent, organisation_id: number): Promise<void> {
    const { position, type, stream, occurredAt: occurred_at } = event;
    await this.entries.add(position, { position, organisation_id, type, stream, actor: actorOf(event.metadata), occurred_at }, position);
  }

  async page(filter: AuditFilter, skip: number, limit: number): Promise<AuditPage> {
    const query: Filter = {
      organisation_id: filter.organisationId,
      type: filter.type,
      'actor.type': filter.actorType,
      'actor.id': filter.actorId,
      occurred_at: filter.from || filter.to ? { gte: filter.from, lte: filter.to } : undefined,
    };
    const [entries, total] = await Promise.all([this.entries.find(query, { sort: [['position', 'desc']], skip, limit }), this.entries.count(query)]);
    return { entries, total };
  }
}
