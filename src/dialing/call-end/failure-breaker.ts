import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CallsQueries } from '../../calls/calls.queries';
import { CampaignsQueries } from '../../campaigns/campaigns.queries';
import { TripFailureBreaker } from '../../campaigns/commands/trip-failure-breaker';
import { breakerTrips } from '../campaign-limits';

/** docs/dialing.md: a campaign whose last finished calls failed beyond its breaker's share stops. */
@Injectable()
export class FailureBreaker {
  constructor(
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
    private readonly campaigns: CampaignsQueries,
  ) {}

  async judge(campaignId: number): Promise<void> {
    const campaign = await this.campaigns.get(campaignId);
    const breaker = campaign?.failure_breaker;
    if (!campaign || !breaker || campaign.status !== 'in-progress') return;
    // Calls still in flight are among the latest too: at most the campaign's concurrency.
    const latest = await this.calls.latestOfCampaign(campaign.user_id, campaign.id, breaker.window + campaign.max_concurrent_calls);
    const failed = breakerTrips(breaker, latest, Date.parse(campaign.started_at ?? campaign.created_at));
    if (failed !== null) await this.commands.execute(new TripFailureBreaker(campaign.id, failed, breaker.window));
  }
}
