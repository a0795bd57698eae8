import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { campaignDecider } from '../campaign.decider';
import { campaignStream } from '../campaign.events';

/** The dialer could not dial the campaign: shown as its `last_error` until it dials it again. */
export class RecordDialingFailure {
  constructor(
    readonly campaignId: number,
    readonly message: string,
    readonly retryAt: Date,
  ) {}
}

/** The dialer went through the campaign again without failing. */
export class RecordDialingRecovery {
  constructor(readonly campaignId: number) {}
}

@CommandHandler(RecordDialingFailure)
export class RecordDialingFailureHandler implements ICommandHandler<RecordDialingFailure, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ campaignId, message, retryAt }: RecordDialingFailure): Promise<void> {
    await this.runner.run(campaignStream(campaignId), campaignDecider, { type: 'RecordDialingFailure', id: campaignId, message, retryAt });
  }
}

@CommandHandler(RecordDialingRecovery)
export class RecordDialingRecoveryHandler implements ICommandHandler<RecordDialingRecovery, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ campaignId }: RecordDialingRecovery): Promise<void> {
    await this.runner.run(campaignStream(campaignId), campaignDecider, { type: 'RecordDialingRecovery', id: campaignId });
  }
}
