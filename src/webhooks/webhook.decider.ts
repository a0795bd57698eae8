import { Decider } from '../shared/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { WebhookEvent, WebhookKind } from './webhook.events';

/** A sender that dies mid-attempt gives the attempt back after the 10 s timeout and this much more. */
export const ATTEMPT_LEASE_MS = 15_000;
export const ATTEMPT_TAKEN = 'The webhook attempt is taken or not due.';
export const STILL_PENDING = 'The webhook delivery is still being attempted.';

/** What a receiver answered, or why nothing came back. */
export interface AttemptResult {
  status_code: number | null;
  body: unknown;
  error: string | null;
  /** Network errors, timeouts and 5xx are worth another attempt; anything else is final. */
  retryable: boolean;
}

export type WebhookCommand =
  | {
      type: 'RequestWebhook';
      id: string;
      callId: number | null;
      organisationId: number;
      campaignId: number | null;
      event: WebhookKind;
      url: string;
      payload: Record<string, unknown>;
    }
  | { type: 'StartWebhookAttempt'; id: string }
  | { type: 'RedeliverWebhook'; id: string; organisationId: number }
  | { type: 'FinishWebhookAttempt'; id: string; attempt: number; result: AttemptResult; retryDelaysSeconds: readonly number[] };

export type WebhookState =
  | { exists: false }
  | {
      exists: true;
      ids: { delivery_id: string; call_id: number | null; user_id: number; campaign_id: number | null; event: WebhookKind };
      attempts: number;
      /** The attempts made before the current series (a redelivery starts a new one). */
      seriesStart: number;
      done: boolean;
      /** When the next attempt may start (the retry time, or the end of a running attempt's lease). */
      dueAt: string;
    };

export const webhookDecider: Decider<WebhookCommand, WebhookState, WebhookEvent> = {
  initialState: { exists: false },

  decide(command, state, now) {
    if (command.type === 'RequestWebhook') {
      if (state.exists) return [];
      const ids = { delivery_id: command.id, call_id: command.callId, user_id: command.organisationId, campaign_id: command.campaignId, event: command.event };
      return [{ type: 'WebhookRequested', data: { ...ids, url: command.url, payload: command.payload } }];
    }
    if (command.type === 'RedeliverWebhook') {
      if (!state.exists || state.ids.user_id !== command.organisationId) throw DomainError.notFound('Webhook delivery');
      if (!state.done) throw new DomainError('conflict', STILL_PENDING);
      return [{ type: 'WebhookRedeliveryRequested', data: { ...state.ids, from_attempt: state.attempts, due_at: now.toISOString() } }];
    }
    if (!state.exists) throw DomainError.notFound('Webhook');
    if (command.type === 'StartWebhookAttempt') {
      if (state.done || new Date(state.dueAt).getTime() > now.getTime()) throw new DomainError('conflict', ATTEMPT_TAKEN);
      const lease = new Date(now.getTime() + ATTEMPT_LEASE_MS).toISOString();
      return [{ type: 'WebhookAttemptStarted', data: { ...state.ids, attempt: state.attempts + 1, lease_until: lease } }];
    }
    if (state.done || command.attempt !== state.attempts) return [];
    const { retryable, ...answer } = command.result;
    const delivered = answer.status_code !== null && answer.status_code >= 200 && answer.status_code < 300;
    const inSeries = command.attempt - state.seriesStart;
    const retry = !delivered && retryable && inSeries <= command.retryDelaysSeconds.length;
    const next = retry ? new Date(now.getTime() + command.retryDelaysSeconds[inSeries - 1] * 1000).toISOString() : null;
    const outcome = delivered ? 'delivered' : retry ? 'retrying' : 'failed';
    return [{ type: 'WebhookAttemptFinished', data: { ...state.ids, attempt: command.attempt, ...answer, outcome, next_attempt_at: next } }];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookRequested': {
        const { url: _url, payload: _payload, ...ids } = event.data;
        return { exists: true, ids, attempts: 0, seriesStart: 0, done: false, dueAt: new Date(0).toISOString() };
      }
      case 'WebhookAttemptStarted':
        return state.exists ? { ...state, attempts: event.data.attempt, dueAt: event.data.lease_until } : state;
      case 'WebhookAttemptFinished':
        return state.exists ? { ...state, done: event.data.outcome !== 'retrying', dueAt: event.data.next_attempt_at ?? state.dueAt } : state;
      case 'WebhookRedeliveryRequested':
        return state.exists ? { ...state, seriesStart: event.data.from_attempt, done: false, dueAt: event.data.due_at } : state;
    }
  },
};
