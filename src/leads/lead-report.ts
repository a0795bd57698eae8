import { Collection, DocumentStore } from '../shared/ports/document-store.port';
import { Counts, applied, difference, isEmpty } from '../shared/counts';
import { LeadStatus } from './lead.events';

/** What the counters read of a lead document. */
export interface CountedLead {
  campaign_id: number;
  status: LeadStatus;
  attempts: number;
  deleted: boolean;
}

/** docs/reports.md: what a campaign's live leads add up to. */
export interface LeadReportDocument {
  campaign_id: number;
  counts: Counts;
}

/** What one lead adds to its campaign: itself, its status, and the attempt that completed it. */
export function leadCounts(lead: CountedLead): Counts {
  if (lead.deleted) return {};
  const counts: Counts = { total: 1, [`s:${lead.status}`]: 1 };
  if (lead.status === 'completed') counts[`a:${lead.attempts}`] = 1;
  return counts;
}

/** The leads projection's counters, moved by the difference each write of a lead makes (as the calls' are). */
export class LeadReportCounters {
  readonly campaigns: Collection<LeadReportDocument>;

  constructor(store: DocumentStore) {
    this.campaigns = store.collection<LeadReportDocument>('lead_report');
  }

  async move(before: CountedLead | null, after: CountedLead, position: number): Promise<void> {
    if (before && before.campaign_id !== after.campaign_id) {
      await this.add(before.campaign_id, difference(leadCounts(before), {}), position);
      await this.add(after.campaign_id, leadCounts(after), position);
      return;
    }
    await this.add(after.campaign_id, difference(before ? leadCounts(before) : {}, leadCounts(after)), position);
  }

  private async add(campaignId: number, change: Counts, position: number): Promise<void> {
    if (isEmpty(change)) return;
    const current = (await this.campaigns.get(campaignId)) ?? { campaign_id: campaignId, counts: {} };
    await this.campaigns.upsert(campaignId, { campaign_id: campaignId, counts: applied(current.counts, change) }, position);
  }
}
