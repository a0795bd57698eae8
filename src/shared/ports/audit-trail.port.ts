import { Actor } from '../event-sourcing/actor';

/** An event of the organisation, named by its position: its values are read from the log when shown (no copy kept). */
export interface AuditEntry {
  position: number;
  organisation_id: number;
  type: string;
  stream: string;
  actor: Actor;
  occurred_at: string;
}

/** Which of an organisation's events a page of its trail holds (docs/teams.md). */
export interface AuditFilter {
  organisationId: number;
  /** The event types the trail shows at all (the features' own: docs/teams.md). */
  types: readonly string[];
  type?: string;
  actorType?: Actor['type'];
  actorId?: number;
  /** ISO 8601 instants, both ends included. */
  from?: string;
  to?: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** How many entries the filter matches in all. */
  total: number;
}

/**
 * docs/teams.md: an organisation's events with their actors, newest first. The embedded log
 * answers from an index of its own; a log that keeps none (EventStoreDB) is answered by a
 * projection into the read store.
 */
export interface AuditTrail {
  page(filter: AuditFilter, skip: number, limit: number): Promise<AuditPage>;
}

export const AUDIT_TRAIL = Symbol('AUDIT_TRAIL');
