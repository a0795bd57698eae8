import { CALL_STATUSES, CallStatus } from '../calls/call.events';
import { CallState, callDecider } from '../calls/call.decider';
import { CampaignState, campaignDecider } from '../campaigns/campaign.decider';
import { Decider, DomainEvent } from '../shared/event-sourcing/decider';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { LEAD_STATUSES, LeadStatus } from '../leads/lead.events';
import { LeadState, leadDecider } from '../leads/lead.decider';

export interface CampaignStateAt {
  status: string;
  max_retries: number;
  retry_delay_seconds: number;
  calling_hours: { start: string; end: string };
  calling_days: string[];
  max_concurrent_calls: number;
  leads: Record<LeadStatus, number>;
  calls: Record<CallStatus, number>;
}

const kindOf = (stream: string) => stream.slice(0, stream.indexOf('-'));

/**
 * The campaign as it stood at `asOf`, folded from its events (oldest first) with the
 * same `evolve` functions the live system decides with. `events` must hold every event
 * of the campaign's streams up to at least `asOf`; later ones are ignored. Null when
 * the campaign did not exist yet.
 */
export function campaignStateAt(campaignId: number, events: Iterable<RecordedEvent>, asOf: Date): CampaignStateAt | null {
  let campaign: CampaignState = campaignDecider.initialState;
  const leads = new Map<string, LeadState>();
  const calls = new Map<string, CallState>();
  const step = <S>(decider: Pick<Decider<unknown, S, DomainEvent>, 'evolve'>, state: S, event: RecordedEvent) => decider.evolve(state, event as never);
  for (const event of events) {
    if (Date.parse(event.occurredAt) > asOf.getTime()) continue;
    switch (kindOf(event.stream)) {
      case 'campaign':
        campaign = step(campaignDecider, campaign, event);
        break;
      case 'lead':
        leads.set(event.stream, step(leadDecider, leads.get(event.stream) ?? leadDecider.initialState, event));
        break;
      case 'call':
        calls.set(event.stream, step(callDecider, calls.get(event.stream) ?? callDecider.initialState, event));
        break;
    }
  }
  if (!campaign.exists) return null;
  const leadCounts = Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0])) as Record<LeadStatus, number>;
  for (const lead of leads.values()) {
    if (lead.exists && !lead.deleted && lead.campaignId === campaignId) leadCounts[lead.status]++;
  }
  const callCounts = Object.fromEntries(CALL_STATUSES.map((s) => [s, 0])) as Record<CallStatus, number>;
  for (const call of calls.values()) if (call.exists) callCounts[call.status]++;
  const { settings } = campaign;
  return {
    status: campaign.status,
    max_retries: settings.max_retries,
    retry_delay_seconds: settings.retry_delay_seconds,
    calling_hours: settings.calling_hours,
    calling_days: settings.calling_days,
    max_concurrent_calls: settings.max_concurrent_calls,
    leads: leadCounts,
    calls: callCounts,
  };
}
