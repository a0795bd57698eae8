import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { doNotCallDecider } from '../do-not-call.decider';
import { doNotCallStream } from '../do-not-call.events';

export class RemoveFromDoNotCall {
  constructor(
    readonly userId: number,
    readonly phoneNumber: string,
  ) {}
}

@CommandHandler(RemoveFromDoNotCall)
export class RemoveFromDoNotCallHandler implements ICommandHandler<RemoveFromDoNotCall, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ userId, phoneNumber }: RemoveFromDoNotCall): Promise<void> {
    const { position } = await this.runner.run(doNotCallStream(userId), doNotCallDecider, { type: 'RemoveFromDoNotCall', userId, phoneNumber });
    await this.projections.settle(position);
  }
}
