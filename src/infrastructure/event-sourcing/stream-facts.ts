import { organisationOf } from '../../shared/event-sourcing/actor';
import { DomainEvent } from '../../shared/event-sourcing/decider';
import { RecordedEvent } from '../../shared/ports/event-store.port';

/** The person a stream is about (docs/privacy.md): the subject its first stamped event names. */
export function streamSubject(recorded: RecordedEvent[]): string | undefined {
  for (const event of recorded) if (typeof event.metadata.subject === 'string') return event.metadata.subject;
  return undefined;
}

export function lastRevision(events: RecordedEvent[]): number | null {
  return events.length ? events[events.length - 1].revision : null;
}

/** The organisation a stream's events were stamped with (docs/teams.md), if any was. */
export function streamOrganisation(recorded: RecordedEvent[]): number | undefined {
  for (const event of recorded) {
    const organisation = organisationOf(event.metadata);
    if (organisation !== undefined) return organisation;
  }
  return undefined;
}

/**
 * The organisation new events name in their data, for a stream never stamped (its first events,
 * written outside a request, by the CLI or a reaction): an organisation's own id, or the owning
 * account's `user_id`, except in a user's stream past its opening, where `user_id` is the person.
 */
export function organisationNamedBy(stream: string, revision: number | null, events: DomainEvent[]): number | undefined {
  for (const event of events) {
    const data = event.data as { organisation_id?: unknown; user_id?: unknown } | null;
    if (typeof data?.organisation_id === 'number') return data.organisation_id;
    if (stream.startsWith('user-') && revision !== null) continue;
    if (typeof data?.user_id === 'number') return data.user_id;
  }
  return undefined;
}
