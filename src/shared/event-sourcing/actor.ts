import { ContextSlot } from '../context-slot';

/** docs/teams.md: who an event was written for. Background work is `system`. */
export interface Actor {
  type: 'user' | 'api_key' | 'system';
  id: number | null;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null };

/**
 * What every event written while handling a request (or a piece of background work) is stamped
 * with by the command runner: the organisation it is for, when known, and who acts.
 */
export interface RequestContext {
  organisationId: number | null;
  actor: Actor;
}

const contexts = new ContextSlot<RequestContext>('request context');
const NO_CONTEXT: RequestContext = { organisationId: null, actor: SYSTEM_ACTOR };

/** A request's context: `system` until its caller is authenticated and named by `actFor`. */
class RequestScope implements RequestContext {
  organisationId: number | null = null;
  actor: Actor = SYSTEM_ACTOR;
}

/** The context of the work being done: no organisation and `system` outside any. */
export const currentContext = (): RequestContext => contexts.get() ?? NO_CONTEXT;

/** The actor of the request being handled, `system` outside any request. */
export const currentActor = (): Actor => currentContext().actor;

/** Runs `work` (and everything it starts) for `organisationId`, on behalf of `actor`. */
export const inContext = <T>(context: RequestContext, work: () => T): T => contexts.run(context, work);

/** Runs `work` (the handling of one request, and everything it starts) in a scope of its own. */
export const inRequestScope = <T>(work: () => T): T => contexts.run(new RequestScope(), work);

/**
 * Names the caller of the request being handled: every event written for it from here on is
 * stamped with them. Outside a request's scope there is no one to name, and acting as the
 * system instead would record a caller's actions as nobody's: that is an error.
 */
export function actFor(context: RequestContext): void {
  const scope = contexts.get();
  if (!(scope instanceof RequestScope)) throw new Error('No request is being handled here: its caller cannot be named');
  scope.organisationId = context.organisationId;
  scope.actor = context.actor;
}

/** Runs `work` as the system, for `organisationId` when the work is one organisation's. */
export const asSystem = <T>(work: () => T, organisationId: number | null = null): T => inContext({ organisationId, actor: SYSTEM_ACTOR }, work);

/** The actor an event was stored with; events from before actors were recorded read as `system`. */
export const actorOf = (metadata: Record<string, unknown>): Actor => {
  const actor = metadata.actor as Actor | undefined;
  return actor && typeof actor === 'object' && typeof actor.type === 'string' ? { type: actor.type, id: actor.id ?? null } : SYSTEM_ACTOR;
};

/** The organisation an event was stored for (docs/teams.md); undefined for events stored before it was recorded. */
export const organisationOf = (metadata: Record<string, unknown>): number | undefined =>
  typeof metadata.organisation_id === 'number' ? metadata.organisation_id : undefined;
