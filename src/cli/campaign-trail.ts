import { INestApplicationContext } from '@nestjs/common';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { CampaignHistory, TrailEntry } from '../history/campaign-history';
import { DomainError } from '../shared/domain-error';

/** The whole audit trail of a campaign for an operator, with its state at `asOf` when asked. */
export async function campaignTrail(app: INestApplicationContext, campaignId: number, asOf?: Date) {
  if (!(await app.get(CampaignsQueries).get(campaignId))) throw DomainError.notFound('Campaign');
  const history = app.get(CampaignHistory);
  const data: TrailEntry[] = [];
  for (let after = 0; ;) {
    const page = await history.page(campaignId, after, 1000);
    data.push(...page.data);
    if (page.next_cursor === null) break;
    after = Number(page.next_cursor);
  }
  return asOf === undefined ? { data } : { data, state: await history.stateAt(campaignId, asOf) };
}
