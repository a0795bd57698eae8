import { DomainError } from '../../shared/domain-error';
import { Decider, DomainEvent } from '../event-sourcing/decider';

/** One stream per user and key (hashed): the request's fingerprint, then its answer. */
export const idempotencyStream = (userId: number, keyHash: string) => `idempotency-${userId}_${keyHash}`;

export type IdempotentRequestStarted = DomainEvent<'IdempotentRequestStarted', { fingerprint: string; at: string }>;
/** `body_hash`: a streamed body's SHA-256, known once it was read (an import's file); absent for the others. */
export type IdempotentRequestAnswered = DomainEvent<'IdempotentRequestAnswered', { status: number; body: unknown; at: string; body_hash?: string }>;
/** The request's body was still arriving at `at` (a large file): it is not deemed abandoned before `at` plus the usual time. */
export type IdempotentRequestProgressed = DomainEvent<'IdempotentRequestProgressed', { at: string }>;
/** The request failed without an answer worth repeating (a server error): the key may be used again. */
export type IdempotentRequestAbandoned = DomainEvent<'IdempotentRequestAbandoned', { at: string }>;
export type IdempotencyEvent = IdempotentRequestStarted | IdempotentRequestProgressed | IdempotentRequestAnswered | IdempotentRequestAbandoned;
export type IdempotencyState =
  | { status: 'free' }
  | { status: 'running'; fingerprint: string; at: string }
  | { status: 'answered'; fingerprint: string; answer: { status: number; body: unknown }; bodyHash: string | null; at: string };

export type IdempotencyCommand =
  { type: 'Begin'; fingerprint: string } | { type: 'Progress' } | { type: 'Answer'; status: number; body: unknown; bodyHash?: string } | { type: 'Abandon' };

/** How long an answer is repeated (contract §12). */
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
        if (state.status === 'free' || !live) return [{ type: 'IdempotentRequestStarted', data: { fingerprint: command.fingerprint, at } }];
        if (state.fingerprint !== command.fingerprint) throw new DomainError('validation', KEY_REUSED);
        if (state.status === 'running') throw new DomainError('conflict', IN_PROGRESS);
        return [];
      }
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
        return { status: 'running', fingerprint: event.data.fingerprint, at: event.data.at };
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
        return { status: 'free' };
    }
  },
};
