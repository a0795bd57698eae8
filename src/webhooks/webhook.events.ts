import { DomainEvent, eventTypes } from '../infrastructure/event-sourcing/decider';
import { WebhookAnswered } from '../calls/webhook-answers';

/** One notification about one call: `call.ended` (post-call) or `call.started` (inbound). */
export type WebhookKind = 'call.ended' | 'call.started';
export const deliveryId = (callId: number, kind: WebhookKind) => `${callId}-${kind === 'call.ended' ? 'ended' : 'started'}`;
export const webhookStream = (id: string) => `webhook-${id}`;

export type WebhookOutcome = 'delivered' | 'retrying' | 'failed';

type Ids = { delivery_id: string; call_id: number; user_id: number; campaign_id: number | null; event: WebhookKind };

export type WebhookRequested = DomainEvent<'WebhookRequested', Ids & { url: string; payload: Record<string, unknown> }>;
/** A sender took the attempt; if it dies, the attempt may be taken again after `lease_until`. */
export type WebhookAttemptStarted = DomainEvent<'WebhookAttemptStarted', Ids & { attempt: number; lease_until: string }>;
export type WebhookAttemptFinished = DomainEvent<
  'WebhookAttemptFinished',
  Ids & {
    attempt: number;
    status_code: number | null;
    body: unknown;
    error: string | null;
    outcome: WebhookOutcome;
    next_attempt_at: string | null;
  }
>;
/** The user asked for a delivery that ended to be sent again: a new series of attempts, due at `due_at`. */
export type WebhookRedeliveryRequested = DomainEvent<'WebhookRedeliveryRequested', Ids & { from_attempt: number; due_at: string }>;
export type WebhookEvent = WebhookRequested | WebhookAttemptStarted | WebhookAttemptFinished | WebhookRedeliveryRequested;

export const WEBHOOK_EVENT_TYPES = eventTypes<WebhookEvent>({
  WebhookRequested: true,
  WebhookAttemptStarted: true,
  WebhookAttemptFinished: true,
  WebhookRedeliveryRequested: true,
});

/** The calls read this event through a shape of their own: the compiler keeps the two in step. */
export const asReadByCalls = (event: WebhookAttemptFinished): WebhookAnswered => event;
