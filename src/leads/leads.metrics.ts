import { Injectable, OnModuleInit } from '@nestjs/common';
import { Metrics } from '../infrastructure/metrics/metrics';
import { LEAD_STATUSES } from './lead.events';
import { LeadsProjection } from './leads.projection';

/**
 * `leads{status}`: the live leads of every organisation by status, summed from the counters the
 * projection keeps per campaign when scraped (one document a campaign, not a count over every lead).
 */
@Injectable()
export class LeadsMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly leads: LeadsProjection,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge('leads', 'Live leads by status', ['status'], async (set) => {
      const campaigns = await this.leads.report.campaigns.find();
      for (const status of LEAD_STATUSES)
        set(
          { status },
          campaigns.reduce((sum, campaign) => sum + (campaign.counts[`s:${status}`] ?? 0), 0),
        );
    });
  }
}
