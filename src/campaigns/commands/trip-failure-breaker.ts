import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { campaignDecider } from '../campaign.decider';
import { campaignStream } from '../campaign.events';

/** docs/dialing.md: too many of the campaign's last finished calls failed; it stops, `failure-rate`. */
export class TripFailureBreaker {
  constructor(
    readonly campaignId: number,
    readonly failed: number,
    readonly window: number,
  ) {}
}

@CommandHandler(TripFailureBreaker)
export class TripFailureBreakerHandler implements ICommandHandler<TripFailureBreaker, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ campaignId, failed, window }: TripFailureBreaker): Promise<void> {
    await this.runner.run(campaignStream(campaignId), campaignDecider, { type: 'TripFailureBreaker', id: campaignId, failed, window });
  }
}
