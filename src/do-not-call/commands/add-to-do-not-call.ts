import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { doNotCallDecider } from '../do-not-call.decider';
import { ListingSource, doNotCallStream } from '../do-not-call.events';

export class AddToDoNotCall {
  constructor(
    readonly userId: number,
    readonly phoneNumbers: readonly string[],
    readonly reason: string | null,
    readonly source: ListingSource,
  ) {}
}

/** Lists numbers for a user; answers how many were not listed before. */
@CommandHandler(AddToDoNotCall)
export class AddToDoNotCallHandler implements ICommandHandler<AddToDoNotCall, number> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ userId, phoneNumbers, reason, source }: AddToDoNotCall): Promise<number> {
    const { position, events } = await this.runner.run(doNotCallStream(userId), doNotCallDecider, {
      type: 'AddToDoNotCall',
      userId,
      phoneNumbers,
      reason,
      source,
    });
    await this.projections.settle(position);
    return events.reduce((sum, e) => sum + (e.type === 'NumbersAddedToDoNotCall' ? e.data.phone_numbers.length : 0), 0);
  }
}
