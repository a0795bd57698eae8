import { organisationOf } from '../../shared/event-sourcing/actor';
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
