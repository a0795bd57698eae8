import { DomainEvent } from '../../shared/event-sourcing/decider';
import { withPersonalSealed, withPersonalSealedNow } from '../../shared/sealing/personal-fields';
import { Sealer } from '../../shared/sealing/sealer';

/** Events as they are written, each with the subject its personal values are sealed under, and the stream's subject. */
export interface Sealed<Event> {
  written: Array<{ event: Event; subject?: string }>;
  subject?: string;
}

/**
 * docs/privacy.md: the events as they are written, each personal value sealed under its
 * subject's key; the stream's subject is the first any event names, and each event is stamped
 * with the subject its values are sealed under. Sealed at once with the keys this instance holds
 * (no promise to wait on: most commands name people whose keys are held); with a key not held,
 * each event once its keys are made ready.
 */
export function personalSealed<Event extends DomainEvent>(
  sealer: Sealer | undefined,
  events: Event[],
  organisation: number | undefined,
  streamSubjectKey: string | undefined,
  now: Date,
): Sealed<Event> | Promise<Sealed<Event>> {
  if (!sealer) return { written: events.map((event) => ({ event, subject: streamSubjectKey })), subject: streamSubjectKey };
  const sealed: Sealed<Event> = { written: [], subject: streamSubjectKey };
  for (const event of events) {
    const atOnce = withPersonalSealedNow(event.type, event.data, organisation, sealed.subject, sealer, now);
    if ('unheld' in atOnce) return sealedOnceHeld(sealer, events, organisation, streamSubjectKey, now, atOnce.unheld);
    add(sealed, event, atOnce);
  }
  return sealed;
}

async function sealedOnceHeld<Event extends DomainEvent>(
  sealer: Sealer,
  events: Event[],
  organisation: number | undefined,
  streamSubjectKey: string | undefined,
  now: Date,
  unheld: ReadonlySet<string>,
): Promise<Sealed<Event>> {
  // The keys the look at once found missing, made ready first: sealing again before would only find them missing again.
  await sealer.holdKeys(unheld);
  const sealed: Sealed<Event> = { written: [], subject: streamSubjectKey };
  for (const event of events) add(sealed, event, await withPersonalSealed(event.type, event.data, organisation, sealed.subject, sealer, now));
  return sealed;
}

/** An event with its data as sealed, stamped with the subject it is sealed under; the stream's subject is the first named. */
function add<Event extends DomainEvent>(sealed: Sealed<Event>, event: Event, one: { data: unknown; subject?: string }): void {
  sealed.written.push({ event: one.data === event.data ? event : ({ ...event, data: one.data } as Event), subject: one.subject });
  sealed.subject ??= one.subject;
}
