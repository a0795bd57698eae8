/** The state shape of a user's resource that can be created, changed and (soft-)deleted. */
export type OwnedResource<T> = { exists: false } | ({ exists: true; organisationId: number; deleted: boolean } & T);

/** True when the resource exists, is not deleted, and belongs to the user: otherwise it is "not found". */
export function ownedLive<T>(state: OwnedResource<T>, organisationId: number): state is Extract<OwnedResource<T>, { exists: true }> {
  return state.exists && !state.deleted && state.organisationId === organisationId;
}
