import { Inject, Injectable } from '@nestjs/common';
import { CAMPAIGN_LEADS, CampaignLeads } from './campaign-leads';
import { CampaignAssistants } from './campaign-assistants';
import { CampaignDocument } from './campaigns.projection';

/** The campaign record of contract §5: its settings, the assistant's timezone and live stats. */
@Injectable()
export class CampaignView {
  constructor(
    private readonly assistants: CampaignAssistants,
    @Inject(CAMPAIGN_LEADS) private readonly leads: CampaignLeads,
  ) {}

  async render(docs: CampaignDocument[]) {
    const timezones = await this.assistants.timezones(docs.map((d) => d.assistant_id));
    return Promise.all(
      docs.map(async (doc) => ({
        id: doc.id,
        name: doc.name,
        assistant_id: doc.assistant_id,
        status: doc.status,
        max_retries: doc.max_retries,
        retry_delay_seconds: doc.retry_delay_seconds,
        calling_hours: doc.calling_hours,
        calling_days: doc.calling_days,
        max_concurrent_calls: doc.max_concurrent_calls,
        window_timezone: doc.window_timezone ?? 'assistant',
        holidays: doc.holidays ?? [],
        timezone: timezones.get(doc.assistant_id) ?? null,
        stats: await this.stats(doc.id),
        retry_policy: doc.retry_policy ?? {},
        max_calls_per_minute: doc.max_calls_per_minute ?? null,
        failure_breaker: doc.failure_breaker ?? null,
        stopped_reason: doc.status === 'stopped' ? (doc.stopped_reason ?? 'user') : null,
        last_error: doc.last_error ?? null,
        created_at: doc.created_at,
        updated_at: doc.updated_at,
      })),
    );
  }

  private async stats(campaignId: number) {
    return { leads: await this.leads.byStatus(campaignId), calls_in_flight: await this.leads.inFlight(campaignId) };
  }
}
