import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { leadDecider } from '../lead.decider';
import { leadStream } from '../lead.events';

export class DeleteLead {
  constructor(
    readonly user: AuthenticatedUser,
    readonly leadId: number,
  ) {}
}

/** The lead leaves every list and is never dialed again; its events stay for the audit trail. */
@CommandHandler(DeleteLead)
export class DeleteLeadHandler implements ICommandHandler<DeleteLead, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ user, leadId }: DeleteLead): Promise<void> {
    const { position } = await this.runner.run(leadStream(leadId), leadDecider, { type: 'DeleteLead', id: leadId, organisationId: user.organisationId });
    await this.projections.settle(position);
  }
}
