/**
 * docs/dialing.md: the order a scheduler pass serves running campaigns in: those that waited longest
 * for a claim first (`lastClaimed`: the pass of each one's latest, none yet first), ties as listed.
 * A campaign served early sees its calls end, and claims again, before the others: served in the
 * same order every pass, it would take more than its share.
 */
export function servingOrder<Campaign extends { id: number }>(running: readonly Campaign[], lastClaimed: ReadonlyMap<number, number>): Campaign[] {
  const waited = (campaign: Campaign) => lastClaimed.get(campaign.id) ?? 0;
  return [...running].sort((a, b) => waited(a) - waited(b));
}
