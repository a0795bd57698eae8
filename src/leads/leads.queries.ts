import { Injectable } from '@nestjs/common';
import { CampaignLeads } from '../campaigns/campaign-leads';
import { Filter } from '../shared/ports/document-store.port';
import { Counts } from '../shared/counts';
import { toE164 } from '../shared/phone';
import { LeadFilterQuery } from './lead.dto';
import { LEAD_STATUSES } from './lead.events';
import { LeadDocument, LeadsProjection } from './leads.projection';

/** The leads list's filter of an organisation's live leads. */
export function leadListFilter(organisationId: number, query: LeadFilterQuery): Filter {
  return {
    user_id: organisationId,
    deleted: false,
    campaign_id: query.campaign_id,
    status: query.status,
    phone_number: query.phone_number === undefined ? undefined : (toE164(query.phone_number) ?? query.phone_number),
  };
}

/** What other features read of leads; campaigns' questions among them. */
@Injectable()
export class LeadsQueries implements CampaignLeads {
  constructor(private readonly projection: LeadsProjection) {}

  get(id: number): Promise<LeadDocument | null> {
    return this.projection.leads.get(id);
  }

  /**
   * docs/forecast.md: a campaign's live leads, oldest first, read at one moment as an export reads
   * them (not kept in the documents' cache: a forecast reads them all once).
   */
  async ofCampaign(organisationId: number, campaignId: number): Promise<LeadDocument[]> {
    const snapshot = await this.projection.leads.snapshot({ user_id: organisationId, deleted: false, campaign_id: campaignId });
    const leads: LeadDocument[] = [];
    try {
      for await (const page of snapshot.pages()) for (const lead of page) leads.push(lead);
    } finally {
      await snapshot.close();
    }
    return leads.reverse();
  }

  /** docs/privacy.md: the organisation's leads (deleted ones too) whose primary number is `phoneNumber`, through the leads' number index. */
  async withPrimaryNumber(organisationId: number, phoneNumber: string): Promise<LeadDocument[]> {
    const [live, deleted] = await Promise.all(
      [false, true].map((isDeleted) => this.projection.leads.find({ user_id: organisationId, deleted: isDeleted, phone_number: phoneNumber })),
    );
    return [...live, ...deleted].sort((a, b) => a.id - b.id);
  }

  /** The organisation's leads of those ids. */
  async ofOrganisation(organisationId: number, ids: number[]): Promise<LeadDocument[]> {
    return (await this.projection.leads.getMany(ids)).filter((lead) => lead.user_id === organisationId);
  }

  /** The user's live lead, or null for a missing, deleted or foreign one. */
  async owned(organisationId: number, id: number): Promise<LeadDocument | null> {
    const doc = await this.projection.leads.get(id);
    return doc && doc.user_id === organisationId && !doc.deleted ? doc : null;
  }

  /** Whether the campaign, the user's, has a live lead with the number. */
  async numberTaken(organisationId: number, campaignId: number, phoneNumber: string): Promise<boolean> {
    return (await this.projection.leads.count({ user_id: organisationId, deleted: false, phone_number: phoneNumber, campaign_id: campaignId })) > 0;
  }

  /** The ids of the campaign's live leads with the number (the campaign is the user's). */
  async liveWithNumber(organisationId: number, campaignId: number, phoneNumber: string): Promise<number[]> {
    return (await this.liveWithNumbers(organisationId, campaignId, [phoneNumber])).get(phoneNumber) ?? [];
  }

  /** `liveWithNumber` for many numbers at once: the ids by number, numbers with none left out. */
  async liveWithNumbers(organisationId: number, campaignId: number, phoneNumbers: string[]): Promise<Map<string, number[]>> {
    const filter = { user_id: organisationId, deleted: false, phone_number: { in: phoneNumbers }, campaign_id: campaignId };
    const byNumber = new Map<string, number[]>();
    // Unsorted: asked in id order, the store read the campaign's leads in that order (an import slowed as it grew).
    for (const lead of await this.projection.leads.find(filter)) {
      const ids = byNumber.get(lead.phone_number);
      if (ids) ids.push(lead.id);
      else byNumber.set(lead.phone_number, [lead.id]);
    }
    for (const ids of byNumber.values()) ids.sort((x, y) => x - y);
    return byNumber;
  }

  /** The campaign's live leads by status, from the counters the projection keeps (one read, not a count of its leads per status). */
  async byStatus(campaignId: number): Promise<Record<string, number>> {
    const counts = await this.reportCounts(campaignId);
    return Object.fromEntries(LEAD_STATUSES.map((status) => [status, counts[`s:${status}`] ?? 0]));
  }

  /** docs/reports.md: what the campaign's live leads add up to (see lead-report.ts). */
  async reportCounts(campaignId: number): Promise<Counts> {
    return (await this.projection.report.campaigns.get(campaignId))?.counts ?? {};
  }

  inFlight(campaignId: number): Promise<number> {
    return this.projection.leads.count({ campaign_id: campaignId, in_flight: true });
  }

  /** The campaign's calls in flight, each with its lead. */
  async callsInFlight(campaignId: number): Promise<Array<{ call_id: number; lead_id: number }>> {
    const leads = await this.projection.leads.find({ campaign_id: campaignId, in_flight: true });
    return leads.map((lead) => ({ call_id: lead.in_flight_call_id!, lead_id: lead.id }));
  }

  /** Every lead's call in flight, whatever its campaign. */
  async callsInFlightAnywhere(): Promise<Array<{ call_id: number; lead_id: number }>> {
    const leads = await this.projection.leads.find({ in_flight: true });
    return leads.map((lead) => ({ call_id: lead.in_flight_call_id!, lead_id: lead.id }));
  }

  /** The calls in flight of every campaign with one or more. */
  inFlightByCampaign(): Promise<Map<number, number>> {
    return this.projection.leads.countBy('campaign_id', { in_flight: true }) as Promise<Map<number, number>>;
  }

  /** Live leads still to be called, from the counters (the scheduler asks at every idle pass). */
  async toCall(campaignId: number): Promise<number> {
    return (await this.reportCounts(campaignId))['s:created'] ?? 0;
  }

  /** When the campaign's next lead is due (epoch ms), or null when none waits to be dialed. */
  async nextDue(campaignId: number): Promise<number | null> {
    const [first] = await this.projection.leads.find({ campaign_id: campaignId, dial_due_at: { gte: 0 } }, { sort: [['dial_due_at', 'asc']], limit: 1 });
    return first?.dial_due_at ?? null;
  }

  /** The campaign's leads due by `now` (epoch ms), the longest waiting first. */
  due(campaignId: number, now: number, limit: number): Promise<LeadDocument[]> {
    return this.projection.leads.find(
      { campaign_id: campaignId, dial_due_at: { lte: now } },
      {
        sort: [
          ['dial_due_at', 'asc'],
          ['id', 'asc'],
        ],
        limit,
      },
    );
  }
}
