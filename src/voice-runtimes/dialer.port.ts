import { RenderedAssistant } from '../assistants/assistant-view';
import { CallProvider } from '../calls/call.events';

/** How long a runtime has to answer a dial request (docs/real-calls.md); past it the dial is looked up, never judged. */
export const DIAL_TIMEOUT_MS = 10_000;

/** The signed request of docs/api.md that asks the telephony provider to place one call. */
export interface DialRequest {
  call_id: number;
  from: string | null;
  to: string;
  assistant_id: number;
  assistant: RenderedAssistant;
  campaign_id: number | null;
  lead_id: number | null;
  secondary_contact_id: number | null;
  variables: Record<string, unknown>;
  callback_url: string;
}

/** The runtime took the call: its own id for it, when it has one. */
export interface DialAccepted {
  providerCallId: string | null;
}

/**
 * What the runtime says of a dial that may have left unconfirmed (docs/real-calls.md): the call it placed
 * (to adopt), none (to dial again), or it could not be asked.
 */
export type DialLookup = { found: string } | 'none' | 'unknown';

/** Places calls. Outcomes come back later through the record-call-outcome command. */
export abstract class Dialer {
  /** What the call records show as its `provider`. */
  abstract readonly provider: CallProvider;

  /** The most dial requests the runtime takes open at once; null: no limit of its own (the campaigns' caps bound them). */
  get maxOpenDials(): number | null {
    return null;
  }

  /** Resolves once the provider accepted the call; throws DialRefused when it did not. */
  abstract dial(request: DialRequest): Promise<DialAccepted>;

  /**
   * Before an unconfirmed dial is sent again: the call the runtime may have placed for it since
   * `sentSince`. A runtime that deduplicates on our call id needs no lookup: 'none'.
   */
  lookup(_request: DialRequest, _sentSince: Date): Promise<DialLookup> {
    return Promise.resolve('none');
  }

  /** A runtime that can end a call it placed (an answering machine took it): hangs it up. */
  hangUp?(providerCallId: string): Promise<void>;
}

export class DialRefused extends Error {
  /**
   * `retryAfterMs`: refused for the runtime's capacity (HTTP 429, a concurrency limit): no attempt
   * is used, and the lead is due again after that long (docs/real-calls.md).
   */
  constructor(
    reason: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(reason);
    this.name = 'DialRefused';
  }
}

/**
 * The runtime did not answer the dial in time, or the connection broke after it was sent: it may
 * have placed the call (docs/real-calls.md). Nothing is judged: the call stays unconfirmed, and the
 * resend sweep looks it up at the runtime before anything is sent again.
 */
export class DialUnanswered extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'DialUnanswered';
  }
}
