import { Inject, Injectable } from '@nestjs/common';
import { CAMPAIGN_LEADS, CampaignLeads } from './campaign-leads';
import { CampaignAssistants } from './campaign-assistants';
import { CampaignDocument } from './campaigns.projection';
import { Clock } from '../shared/clock';
import { nextCallingInstant } from '../shared/calling-window';

/** The campaign record of docs/api.md: its settings, the assistant's timezone and live stats. */
@Injectable()
export class CampaignView {
  constructor(
    private readonly assistants: CampaignAssistants,
    @Inject(CAMPAIGN_LEADS) private readonly leads: CampaignLeads,
    private readonly clock: Clock,
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
        next_window_at: await this.nextWindowAt(doc, timezones.get(doc.assistant_id) ?? null),
        created_at: doc.created_at,
        updated_at: doc.updated_at,
      })),
    );
  }

  /**
   * docs/dialing.md: while it runs and nothing may be dialed now, when dialing resumes: the
   * assistant's window opening, else the first instant a lead is due (its window, quiet hours,
   * holidays and retry delay all weighed when its turn was moved).
   */
  private async nextWindowAt(doc: CampaignDocument, assistantTimezone: string | null): Promise<string | null> {
    if (doc.status !== 'in-progress') return null;
    const now = this.clock.now().getTime();
    let resumes = now;
    if ((doc.window_timezone ?? 'assistant') === 'assistant' && assistantTimezone) {
      const hours = doc.calling_hours as Partial<CampaignDocument['calling_hours']> | null;
      // Stored settings the dialer refuses (docs/api.md: it shows `last_error`) have no window.
      if (typeof hours?.start !== 'string' || typeof hours.end !== 'string' || !Array.isArray(doc.calling_days)) return null;
      const window = { timezone: assistantTimezone, calling_hours: doc.calling_hours, calling_days: doc.calling_days };
      resumes = nextCallingInstant(window, new Date(now))?.getTime() ?? now;
    }
    const due = await this.leads.nextDue(doc.id);
    if (due !== null) resumes = Math.max(resumes, due);
    return resumes > now ? new Date(resumes).toISOString() : null;
  }

  private async stats(campaignId: number) {
    return { leads: await this.leads.byStatus(campaignId), calls_in_flight: await this.leads.inFlight(campaignId) };
  }
}
