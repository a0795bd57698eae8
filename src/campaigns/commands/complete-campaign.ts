import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { campaignDecider } from '../campaign.decider';
import { campaignStream } from '../campaign.events';

export class CompleteCampaign {
  constructor(
    readonly campaignId: number,
    readonly leadsToCall: number,
    readonly callsInFlight: number,
  ) {}
}

/** The dialer's word that nothing is left: an in-progress campaign becomes `completed`. */
@CommandHandler(CompleteCampaign)
export class CompleteCampaignHandler implements ICommandHandler<CompleteCampaign, number | null> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ campaignId, leadsToCall, callsInFlight }: CompleteCampaign) {
    const { position } = await this.runner.run(campaignStream(campaignId), campaignDecider, {
      type: 'CompleteCampaign',
      id: campaignId,
      leadsToCall,
      callsInFlight,
    });
    return position;
  }
}
