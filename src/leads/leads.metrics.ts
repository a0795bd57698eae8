import { Injectable, OnModuleInit } from '@nestjs/common';
import { Metrics } from '../infrastructure/metrics/metrics';
import { LEAD_STATUSES } from './lead.events';
import { LeadsProjection } from './leads.projection';

/** `leads{status}`: the live leads of every user by status, read from the read model when scraped. */
@Injectable()
export class LeadsMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly leads: LeadsProjection,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge('leads', 'Live leads by status', ['status'], async (set) => {
      for (const status of LEAD_STATUSES) set({ status }, await this.leads.leads.count({ deleted: false, status }));
    });
  }
}
