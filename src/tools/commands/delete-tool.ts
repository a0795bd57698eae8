import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { toolDecider } from '../tool.decider';
import { toolStream } from '../tool.events';

/** Deleting a tool detaches it from every assistant: assistants resolve their tools from the live tool list. */
export class DeleteTool {
  constructor(
    readonly user: AuthenticatedUser,
    readonly toolId: number,
  ) {}
}

@CommandHandler(DeleteTool)
export class DeleteToolHandler implements ICommandHandler<DeleteTool, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ user, toolId }: DeleteTool): Promise<void> {
    const { position } = await this.runner.run(toolStream(toolId), toolDecider, { type: 'DeleteTool', toolId, organisationId: user.organisationId });
    await this.projections.settle(position);
  }
}
