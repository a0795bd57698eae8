/**
 * What campaigns ask of their leads. The leads feature answers it (it stands above campaigns:
 * a lead is created into a campaign), bound to this token.
 */
export const CAMPAIGN_LEADS = Symbol('CAMPAIGN_LEADS');

export interface CampaignLeads {
  /** The campaign's live leads by status, every status named. */
  byStatus(campaignId: number): Promise<Record<string, number>>;
  /** Its leads with a call in flight. */
  inFlight(campaignId: number): Promise<number>;
  /** Its live leads still to call. */
  toCall(campaignId: number): Promise<number>;
  /** When its next lead is due (epoch ms), or null when none waits to be dialed. */
  nextDue(campaignId: number): Promise<number | null>;
}
