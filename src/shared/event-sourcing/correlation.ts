import { DomainEvent } from './decider';

/**
 * Events that name a campaign (its own, its leads', its calls', their webhooks') are
 * correlated with it, so its audit trail is read through the store's correlation index.
 */
export function correlationIdOf(event: DomainEvent): string | undefined {
  const campaignId = (event.data as { campaign_id?: unknown } | null)?.campaign_id;
  return typeof campaignId === 'number' ? campaignCorrelation(campaignId) : undefined;
}

export const campaignCorrelation = (campaignId: number) => `campaign-${campaignId}`;
