import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { doNotCallDecider } from '../do-not-call.decider';
import { doNotCallStream } from '../do-not-call.events';
import { DoNotCallQueries } from '../do-not-call.queries';

export class RemoveFromDoNotCall {
  constructor(
    readonly organisationId: number,
    readonly phoneNumber: string,
  ) {}
}

@CommandHandler(RemoveFromDoNotCall)
export class RemoveFromDoNotCallHandler implements ICommandHandler<RemoveFromDoNotCall, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly list: DoNotCallQueries,
  ) {}

  async execute({ organisationId, phoneNumber }: RemoveFromDoNotCall): Promise<void> {
    const listedBefore = (await this.list.listed(organisationId, [phoneNumber])).length > 0;
    const command = { type: 'RemoveFromDoNotCall' as const, organisationId, phoneNumber, listedBefore };
    const { position } = await this.runner.run(doNotCallStream(organisationId, this.list.numberKey(organisationId, phoneNumber)), doNotCallDecider, command);
    await this.projections.settle(position);
  }
}
