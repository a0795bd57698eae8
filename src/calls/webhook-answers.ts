import { DomainEvent } from '../shared/event-sourcing/decider';

/**
 * What the calls read of the webhooks' `WebhookAttemptFinished` event: the answer of an attempt
 * to notify the user's system about a call. Declared here, by the reader, so that calls need
 * not know the webhooks feature that writes it (it stands above them).
 */
export type WebhookAnswered = DomainEvent<
  'WebhookAttemptFinished',
  {
    call_id: number | null;
    event: string;
    attempt: number;
    status_code: number | null;
    body: unknown;
    error: string | null;
    outcome: string;
  }
>;
