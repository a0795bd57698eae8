import { Injectable } from '@nestjs/common';
import { CallsQueries } from '../calls/calls.queries';
import { CampaignDocument } from '../campaigns/campaigns.projection';
import { DialingPolicies } from '../dialing/dialing-policies';
import { undialableBecause } from '../dialing/dialable-settings';
import { DomainError } from '../shared/domain-error';
import { DoNotCallQueries } from '../do-not-call/do-not-call.queries';
import { RuntimeCapacity } from '../voice-runtimes/runtime-capacity';
import { zonesOf } from '../leads/lead-zones';
import { LeadDocument } from '../leads/leads.projection';
import { LeadsQueries } from '../leads/leads.queries';
import { Clock } from '../shared/clock';
import { forEachInSteps, runInSteps } from '../shared/yield-to-io';
import { Assumptions, DialForecast, ForecastLead, ForecastSettings, forecastSteps } from './dial-forecast';
import { ForecastTurns } from './forecast-turns';

/** docs/forecast.md: the assumptions stated when a campaign has too few calls to learn from. */
export const DEFAULT_ASSUMPTIONS: Assumptions = { answerRate: 0.3, averageCallSeconds: 60 };
/** Calls a campaign needs before its own answer rate and call length are used. */
export const HISTORY_CALLS = 20;

export interface CampaignForecast extends Omit<DialForecast, 'perLead'> {
  campaign_id: number;
  from: string;
  computed_at: string;
  assumptions: { answer_rate: number; average_call_seconds: number; source: 'history' | 'default' };
  perLead: DialForecast['perLead'];
}

/**
 * docs/forecast.md: a campaign's forecast from its leads as they stand, the dial rules the dialer
 * applies (DialingPolicies, the same `nextDialInstant`), its caps and the runtime's, and its
 * history when it has enough calls.
 */
@Injectable()
export class CampaignForecasts {
  constructor(
    private readonly policies: DialingPolicies,
    private readonly leads: LeadsQueries,
    private readonly calls: CallsQueries,
    private readonly doNotCall: DoNotCallQueries,
    private readonly runtime: RuntimeCapacity,
    private readonly clock: Clock,
  ) {}

  private readonly turns = new ForecastTurns<CampaignForecast>();

  /** One large forecast computed at a time in an instance, small ones beside it; the same one asked again meanwhile is shared (ForecastTurns). */
  async of(campaign: CampaignDocument, from: Date | undefined): Promise<CampaignForecast> {
    const leads = Object.values(await this.leads.byStatus(campaign.id)).reduce((sum, n) => sum + n, 0);
    return this.turns.take(`${campaign.id}:${from?.toISOString() ?? 'now'}`, leads, () => this.computed(campaign, from));
  }

  private async computed(campaign: CampaignDocument, from: Date | undefined): Promise<CampaignForecast> {
    const now = this.clock.now();
    const start = from ?? now;
    // Settings a store from before their checks may hold, or an assistant gone: said, not a 500.
    const undialable = undialableBecause(campaign);
    if (undialable) throw DomainError.validation('campaign', `The campaign cannot be dialed: ${undialable}.`);
    const policy = await this.policies.policyOf(campaign);
    if (!policy) throw DomainError.validation('assistant_id', "The campaign's assistant no longer exists.");
    const cap = this.runtime.cap?.capacity ?? Number.POSITIVE_INFINITY;
    const settings: ForecastSettings = {
      rules: policy.rules,
      maxRetries: campaign.max_retries,
      retryDelaySeconds: campaign.retry_delay_seconds,
      maxConcurrentCalls: Math.min(campaign.max_concurrent_calls, cap),
      maxCallsPerMinute: campaign.max_calls_per_minute ?? null,
    };
    const [assumptions, leads] = await Promise.all([this.assumptions(campaign.id), this.forecastLeads(campaign)]);
    const forecast = await runInSteps(forecastSteps(settings, assumptions.used, leads, start));
    return {
      campaign_id: campaign.id,
      from: start.toISOString(),
      computed_at: now.toISOString(),
      assumptions: { answer_rate: assumptions.used.answerRate, average_call_seconds: assumptions.used.averageCallSeconds, source: assumptions.source },
      ...forecast,
    };
  }

  /** The campaign's answer rate and answered call length, once it has HISTORY_CALLS calls; else the defaults. */
  private async assumptions(campaignId: number): Promise<{ used: Assumptions; source: 'history' | 'default' }> {
    let calls = 0;
    let reached = 0;
    let duration = 0;
    for (const day of await this.calls.reportDays(campaignId)) {
      calls += day.counts.calls ?? 0;
      reached += day.counts.reached ?? 0;
      duration += day.counts.duration ?? 0;
    }
    if (calls < HISTORY_CALLS || reached === 0) return { used: DEFAULT_ASSUMPTIONS, source: 'default' };
    const answerRate = Math.round((reached / calls) * 1000) / 1000;
    return { used: { answerRate, averageCallSeconds: Math.max(1, Math.round(duration / reached)) }, source: 'history' };
  }

  private async forecastLeads(campaign: CampaignDocument): Promise<ForecastLead[]> {
    const docs = await this.leads.ofCampaign(campaign.user_id, campaign.id);
    const numbers: string[] = [];
    await runInSteps(forEachInSteps(docs, (lead) => numbers.push(lead.phone_number, ...lead.secondary_contacts.map((c) => c.phone_number))));
    const listed = await this.doNotCall.listedAmong(campaign.user_id, numbers);
    const contact = (number: string, zones: string[]) => ({ zones, listed: listed(number) });
    const leads: ForecastLead[] = [];
    await runInSteps(
      forEachInSteps(docs, (lead: LeadDocument) =>
        leads.push({
          id: lead.id,
          phone_number: lead.phone_number,
          status: lead.status,
          contacts: [contact(lead.phone_number, zonesOf(lead)), ...lead.secondary_contacts.map((c) => contact(c.phone_number, zonesOf(c)))],
          attempts: lead.attempts,
          dueAt: lead.next_due_at,
        }),
      ),
    );
    return leads;
  }
}
