import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { userDecider } from '../user.decider';
import { Retention, userStream } from '../user.events';

/** docs/privacy.md: how long the organisation keeps a call's values; the kinds left out keep theirs. */
export class SetRetention {
  constructor(
    readonly organisationId: number,
    readonly retention: Partial<Retention>,
  ) {}
}

@CommandHandler(SetRetention)
export class SetRetentionHandler implements ICommandHandler<SetRetention, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ organisationId, retention }: SetRetention): Promise<void> {
    const { position } = await this.runner.run(userStream(organisationId), userDecider, { type: 'SetRetention', userId: organisationId, retention });
    await this.projections.settle(position);
  }
}
