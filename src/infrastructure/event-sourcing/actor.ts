import { AsyncLocalStorage } from 'node:async_hooks';

/** docs/teams.md: who an event was written for. Background work is `system`. */
export interface Actor {
  type: 'user' | 'api_key' | 'system';
  id: number | null;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null };

const acting = new AsyncLocalStorage<Actor>();

/** The actor of the request being handled, `system` outside any request. */
export const currentActor = (): Actor => acting.getStore() ?? SYSTEM_ACTOR;

/** Runs `work` (and everything it starts) on behalf of `actor`. */
export const actingAs = <T>(actor: Actor, work: () => T): T => acting.run(actor, work);

/** The actor an event was stored with; events from before actors were recorded read as `system`. */
export const actorOf = (metadata: Record<string, unknown>): Actor => {
  const actor = metadata.actor as Actor | undefined;
  return actor && typeof actor === 'object' && typeof actor.type === 'string' ? { type: actor.type, id: actor.id ?? null } : SYSTEM_ACTOR;
};
