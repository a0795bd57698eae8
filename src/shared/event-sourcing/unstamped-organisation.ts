/**
 * The organisation events name in their data, for events not stamped with one (written outside a
 * request, or stored before the command runner stamped every event: docs/teams.md): an
 * organisation's own id, or the owning account's `user_id`, except in a user's stream past its
 * opening, where `user_id` is the person. `revision`: the stream's before these events (null: new).
 */
export function organisationNamedBy(stream: string, revision: number | null, events: ReadonlyArray<{ data: unknown }>): number | undefined {
  for (const event of events) {
    const data = event.data as { organisation_id?: unknown; user_id?: unknown } | null;
    if (typeof data?.organisation_id === 'number') return data.organisation_id;
    if (stream.startsWith('user-') && revision !== null) continue;
    if (typeof data?.user_id === 'number') return data.user_id;
  }
  return undefined;
}

/** The same for one stored event, at its own revision. */
export const organisationNamedByEvent = (stream: string, revision: number, data: unknown): number | undefined =>
  organisationNamedBy(stream, revision === 0 ? null : revision - 1, [{ data }]);

/**
 * Streams some of whose unstamped events name no organisation (a user's tokens, an assistant's
 * publication, an import's progress): their first event's organisation stands for the rest.
 */
const STREAMS_OWNED_BY_FIRST_EVENT = ['user-', 'assistant-', 'lead_import-'];

/** Whether `stream`'s later unnamed events belong to the organisation of its first. */
export const ownedByFirstEvent = (stream: string): boolean => STREAMS_OWNED_BY_FIRST_EVENT.some((kind) => stream.startsWith(kind));
