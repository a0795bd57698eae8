import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { CheckedBody } from '../../shared/validation/validation.pipe';
import { CreateLeadDto } from '../lead.dto';
import { LeadDocument, createdLead } from '../leads.projection';
import { LeadCreation } from './lead-creation';

export class CreateLead {
  constructor(
    readonly user: AuthenticatedUser,
    readonly body: CheckedBody<CreateLeadDto>,
    /** The id chosen for it beforehand (an idempotent request's); else one is drawn. */
    readonly id?: number,
  ) {}
}

@CommandHandler(CreateLead)
export class CreateLeadHandler implements ICommandHandler<CreateLead, LeadDocument> {
  constructor(
    private readonly creation: LeadCreation,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ user, body, id }: CreateLead): Promise<LeadDocument> {
    const { position, created, occurredAt } = await this.creation.make(user.organisationId, body, undefined, id);
    await this.projections.settle(position);
    // Read your writes: the list shows the lead once settled. The answer is the document the
    // projection wrote, made by the same function rather than read back.
    return createdLead(created!.data, occurredAt);
  }
}
