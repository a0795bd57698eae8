import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { userDecider } from '../user.decider';
import { QuietHours, userStream } from '../user.events';

/** docs/dialing.md: a user narrows their quiet hours; the operator (CLI) sets any range, or none. */
export class SetQuietHours {
  constructor(
    readonly userId: number,
    readonly quietHours: QuietHours | null,
    readonly by: 'user' | 'operator',
  ) {}
}

@CommandHandler(SetQuietHours)
export class SetQuietHoursHandler implements ICommandHandler<SetQuietHours, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ userId, quietHours, by }: SetQuietHours): Promise<void> {
    const { position } = await this.runner.run(userStream(userId), userDecider, { type: 'SetQuietHours', userId, quietHours, by });
    await this.projections.settle(position);
  }
}
