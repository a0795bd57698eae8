import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { campaignDecider } from '../campaign.decider';
import { CAMPAIGN_LEADS, CampaignLeads } from '../campaign-leads';
import { campaignStream, CampaignStatus } from '../campaign.events';

export class ChangeCampaignStatus {
  constructor(
    readonly user: AuthenticatedUser,
    readonly campaignId: number,
    readonly action: 'start' | 'stop',
  ) {}
}

/** Start or stop; repeating the current action changes nothing and answers the same status. */
@CommandHandler(ChangeCampaignStatus)
export class ChangeCampaignStatusHandler implements ICommandHandler<ChangeCampaignStatus, CampaignStatus> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    @Inject(CAMPAIGN_LEADS) private readonly leads: CampaignLeads,
  ) {}

  async execute({ user, campaignId, action }: ChangeCampaignStatus): Promise<CampaignStatus> {
    const command =
      action === 'start'
        ? { type: 'StartCampaign' as const, id: campaignId, organisationId: user.organisationId, leadsToCall: await this.leads.toCall(campaignId) }
        : { type: 'StopCampaign' as const, id: campaignId, organisationId: user.organisationId };
    const { position, state } = await this.runner.run(campaignStream(campaignId), campaignDecider, command);
    await this.projections.settle(position);
    return state.exists ? state.status : 'draft';
  }
}
