/**
 * docs/dialing.md: the order a scheduler's passes serve running campaigns in: those that waited
 * longest for a claim first (never claimed before all), ties as listed. A campaign served early
 * sees its calls end, and claims again, before the others: served in the same order every pass,
 * it would take more than its share. (Turning the order one further along each pass was fair only
 * over as many passes as campaigns.)
 */
export class CampaignTurns {
  private pass = 0;
  /** The pass in which each running campaign last had a lead claimed. */
  private readonly lastClaimed = new Map<number, number>();

  /** Begins a pass: the running campaigns in the order to serve them. Campaigns no longer running are forgotten. */
  next<Campaign extends { id: number }>(running: readonly Campaign[]): Campaign[] {
    this.pass++;
    const ids = new Set(running.map((campaign) => campaign.id));
    for (const id of this.lastClaimed.keys()) if (!ids.has(id)) this.lastClaimed.delete(id);
    const waited = (campaign: Campaign) => this.lastClaimed.get(campaign.id) ?? 0;
    return [...running].sort((a, b) => waited(a) - waited(b));
  }

  /** The campaign had leads claimed in this pass. */
  claimed(campaignId: number): void {
    this.lastClaimed.set(campaignId, this.pass);
  }
}
