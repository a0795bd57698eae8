import { DomainError } from '../shared/domain-error';
import { Decider, DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

/** One stream per user and key (hashed): the request's fingerprint, then its answer. */
export const idempotencyStream = (userId: number, keyHash: string) => `idempotency-${userId}_${keyHash}`;

/** `resource_id`: the id an earlier run of the same request chose for what it creates, carried over (absent: none yet). */
export type IdempotentRequestStarted = DomainEvent<'IdempotentRequestStarted', { fingerprint: string; at: string; resource_id?: number }>;
/** The id of what the request creates, chosen before it creates it: a retry after a failure creates under it again, or answers from it. */
export type IdempotentResourceChosen = DomainEvent<'IdempotentResourceChosen', { resource_id: number }>;
/** `body_hash`: a streamed body's SHA-256, known once it was read (an import's file); absent for the others. */
export type IdempotentRequestAnswered = DomainEvent<'IdempotentRequestAnswered', { status: number; body: unknown; at: string; body_hash?: string }>;
/** The request's body was still arriving at `at` (a large file): it is not deemed abandoned before `at` plus the usual time. */
export type IdempotentRequestProgressed = DomainEvent<'IdempotentRequestProgressed', { at: string }>;
/** The request failed without an answer worth repeating (a server error): the key may be used again. */
export type IdempotentRequestAbandoned = DomainEvent<'IdempotentRequestAbandoned', { at: string }>;
export type IdempotencyEvent =
  IdempotentRequestStarted | IdempotentResourceChosen | IdempotentRequestProgressed | IdempotentRequestAnswered | IdempotentRequestAbandoned;

/** docs/privacy.md: what each field holds (an answer's body names whatever the request made). */
export const IDEMPOTENCY_EVENT_TYPES = declareFields<IdempotencyEvent>({
  IdempotentRequestStarted: { fingerprint: 'plain', at: 'plain', resource_id: 'plain' },
  IdempotentResourceChosen: { resource_id: 'plain' },
  IdempotentRequestAnswered: { status: 'plain', body: 'personal', at: 'plain', body_hash: 'plain' },
  IdempotentRequestProgressed: { at: 'plain' },
  IdempotentRequestAbandoned: { at: 'plain' },
});
/** `resourceId`: what the request (of that fingerprint) creates, once chosen; kept when a run is abandoned, for its retry. */
export type IdempotencyState =
  | { status: 'free'; fingerprint?: string; resourceId?: number | null }
  | { status: 'running'; fingerprint: string; at: string; resourceId: number | null }
  | { status: 'answered'; fingerprint: string; answer: { status: number; body: unknown }; bodyHash: string | null; at: string };

export type IdempotencyCommand =
  | { type: 'Begin'; fingerprint: string }
  | { type: 'Choose'; resourceId: number }
  | { type: 'Progress' }
  | { type: 'Answer'; status: number; body: unknown; bodyHash?: string }
  | { type: 'Abandon' };

/** How long an answer is repeated (docs/api.md). */
export const ANSWER_KEPT_MS = 24 * 60 * 60 * 1000;
/** A request running this long since it began or last progressed died with its process: its key may be used again. */
export const RUNNING_ABANDONED_MS = 2 * 60 * 1000;

export const KEY_REUSED = 'Idempotency key reused with another request.';
export const IN_PROGRESS = 'A request with this idempotency key is in progress.';

const age = (at: string, now: Date) => now.getTime() - Date.parse(at);

/**
 * `Begin` starts the request (an event), or decides nothing when its answer is to be repeated
 * (the state holds it), or refuses: another body under the key, or the same one still running.
 */
export const idempotencyDecider: Decider<IdempotencyCommand, IdempotencyState, IdempotencyEvent> = {
  initialState: { status: 'free' },

  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.type) {
      case 'Begin': {
        const live =
          (state.status === 'answered' && age(state.at, now) < ANSWER_KEPT_MS) || (state.status === 'running' && age(state.at, now) < RUNNING_ABANDONED_MS);
        if (state.status === 'free' || !live) {
          // The same request again after a run that failed or died: it goes on with what that run chose.
          const carried = state.status !== 'answered' && state.fingerprint === command.fingerprint ? state.resourceId : null;
          return [{ type: 'IdempotentRequestStarted', data: { fingerprint: command.fingerprint, at, ...(carried ? { resource_id: carried } : {}) } }];
        }
        if (state.fingerprint !== command.fingerprint) throw new DomainError('validation', KEY_REUSED);
        if (state.status === 'running') throw new DomainError('conflict', IN_PROGRESS);
        return [];
      }
      case 'Choose':
        return state.status === 'running' && state.resourceId === null ? [{ type: 'IdempotentResourceChosen', data: { resource_id: command.resourceId } }] : [];
      case 'Progress':
        return state.status === 'running' ? [{ type: 'IdempotentRequestProgressed', data: { at } }] : [];
      case 'Answer':
        if (state.status !== 'running') return [];
        return [
          {
            type: 'IdempotentRequestAnswered',
            data: { status: command.status, body: command.body, at, ...(command.bodyHash ? { body_hash: command.bodyHash } : {}) },
          },
        ];
      case 'Abandon':
        return state.status === 'running' ? [{ type: 'IdempotentRequestAbandoned', data: { at } }] : [];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'IdempotentRequestStarted':
        return { status: 'running', fingerprint: event.data.fingerprint, at: event.data.at, resourceId: event.data.resource_id ?? null };
      case 'IdempotentResourceChosen':
        return state.status === 'running' ? { ...state, resourceId: event.data.resource_id } : state;
      case 'IdempotentRequestProgressed':
        return state.status === 'running' ? { ...state, at: event.data.at } : state;
      case 'IdempotentRequestAnswered':
        return state.status === 'running'
          ? {
              status: 'answered',
              fingerprint: state.fingerprint,
              answer: { status: event.data.status, body: event.data.body },
              bodyHash: event.data.body_hash ?? null,
              at: event.data.at,
            }
          : state;
      case 'IdempotentRequestAbandoned':
        return state.status === 'running' ? { status: 'free', fingerprint: state.fingerprint, resourceId: state.resourceId } : { status: 'free' };
    }
  },
};
