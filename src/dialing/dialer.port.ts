/** The signed request of contract §8 that asks the telephony provider to place one call. */
export interface DialRequest {
  call_id: number;
  from: string | null;
  to: string;
  assistant_id: number;
  assistant: Record<string, unknown>;
  campaign_id: number | null;
  lead_id: number | null;
  secondary_contact_id: number | null;
  variables: Record<string, unknown>;
  callback_url: string;
}

/** Places calls. Outcomes come back later through the record-call-outcome command. */
export abstract class Dialer {
  /** The most dial requests the runtime takes open at once; null: no limit of its own (the campaigns' caps bound them). */
  get maxOpenDials(): number | null {
    return null;
  }

  /** Resolves once the provider accepted the call; throws DialRefused when it did not. */
  abstract dial(request: DialRequest): Promise<void>;
}

export class DialRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'DialRefused';
  }
}
