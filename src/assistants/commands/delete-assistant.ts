import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { assistantDecider } from '../assistant.decider';
import { assistantStream } from '../assistant.events';

/** A soft delete: the assistant keeps its history and shows `deleted_at`, but is gone from the API. */
export class DeleteAssistant {
  constructor(
    readonly user: AuthenticatedUser,
    readonly id: number,
  ) {}
}

@CommandHandler(DeleteAssistant)
export class DeleteAssistantHandler implements ICommandHandler<DeleteAssistant, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ user, id }: DeleteAssistant): Promise<void> {
    const { position } = await this.runner.run(assistantStream(id), assistantDecider, { type: 'DeleteAssistant', id, organisationId: user.organisationId });
    await this.projections.settle(position);
  }
}
