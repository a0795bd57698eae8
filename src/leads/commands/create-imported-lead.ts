import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CheckedBody } from '../../shared/validation/validation.pipe';
import { CreateLeadDto } from '../lead.dto';
import { ImportedRow, LeadCreation, LeadMade } from './lead-creation';

/**
 * A row of an import made a lead under the id set aside for it (docs/imports.md): refused as a
 * single create would be. Its caller settles the projections once per batch.
 */
export class CreateImportedLead {
  constructor(
    readonly organisationId: number,
    readonly body: CheckedBody<CreateLeadDto>,
    readonly row: ImportedRow,
  ) {}
}

@CommandHandler(CreateImportedLead)
export class CreateImportedLeadHandler implements ICommandHandler<CreateImportedLead, LeadMade> {
  constructor(private readonly creation: LeadCreation) {}

  execute({ organisationId, body, row }: CreateImportedLead): Promise<LeadMade> {
    return this.creation.make(organisationId, body, row);
  }
}
