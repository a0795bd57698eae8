import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';
import { WebhookAnswered } from '../calls/webhook-answers';

/**
 * One notification: about a call, `call.ended` (post-call) or `call.started` (inbound); about a
 * lead or a campaign reaching an end (docs/api.md).
 */
export type WebhookKind = 'call.ended' | 'call.started' | 'lead.completed' | 'lead.reached-max-retries' | 'campaign.completed' | 'campaign.stopped';
export const deliveryId = (callId: number, kind: 'call.ended' | 'call.started') => `${callId}-${kind === 'call.ended' ? 'ended' : 'started'}`;
/** A lead's or a campaign's notification, one per event that owes it. */
export const lifecycleDeliveryId = (kind: WebhookKind, position: number) => `${kind}-${position}`;
export const webhookStream = (id: string) => `webhook-${id}`;

export type WebhookOutcome = 'delivered' | 'retrying' | 'failed';

type Ids = { delivery_id: string; call_id: number | null; user_id: number; campaign_id: number | null; event: WebhookKind };

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

/** The call's values a body carries that its organisation's retention erases (docs/privacy.md). */
export const RETAINED_CALL_VALUES = { transcript: 'retained:transcripts', recording_url: 'retained:recordings', variables: 'retained:variables' } as const;

/** What every webhook event names: the delivery, its call and campaign, the organisation, the event sent. */
const DELIVERY = { delivery_id: 'plain', call_id: 'plain', user_id: 'plain', campaign_id: 'plain', event: 'plain' } as const;

export const WEBHOOK_EVENT_TYPES = declareFields<WebhookEvent>({
  // A call's transcript, recording and variables sent on are kept no longer than the call's own (its retention).
  WebhookRequested: { ...DELIVERY, url: 'plain', payload: { '*': 'personal', call: { '*': 'personal', ...RETAINED_CALL_VALUES } } },
  WebhookAttemptStarted: { ...DELIVERY, attempt: 'plain', lease_until: 'plain' },
  WebhookAttemptFinished: { ...DELIVERY, attempt: 'plain', status_code: 'plain', body: 'personal', error: 'plain', outcome: 'plain', next_attempt_at: 'plain' },
  WebhookRedeliveryRequested: { ...DELIVERY, from_attempt: 'plain', due_at: 'plain' },
});

/** The calls read this event through a shape of their own: this type fails to compile when the two part. */
export type ReadByCalls<Event extends WebhookAnswered = WebhookAttemptFinished> = Event;
