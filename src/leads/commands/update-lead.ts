import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CampaignsQueries } from '../../campaigns/campaigns.queries';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { DomainError } from '../../shared/domain-error';
import { toE164 } from '../../shared/phone';
import { UpdateLeadDto } from '../lead.dto';
import { leadDecider } from '../lead.decider';
import { leadStream } from '../lead.events';
import { LeadsQueries } from '../leads.queries';
import { LeadNumbers } from '../lead-numbers';

export class UpdateLead {
  constructor(
    readonly user: AuthenticatedUser,
    readonly leadId: number,
    readonly body: UpdateLeadDto,
  ) {}
}

/** docs/api.md's order of refusals: the lead, then the target campaign, then the number. */
@CommandHandler(UpdateLead)
export class UpdateLeadHandler implements ICommandHandler<UpdateLead, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly leads: LeadsQueries,
    private readonly campaigns: CampaignsQueries,
    private readonly numbers: LeadNumbers,
  ) {}

  async execute({ user, leadId, body }: UpdateLead): Promise<void> {
    if (!(await this.leads.owned(user.organisationId, leadId))) throw DomainError.notFound('Lead');
    if (body.campaign_id !== undefined && !(await this.campaigns.owned(user.organisationId, body.campaign_id))) throw DomainError.notFound('Campaign');
    let phoneNumber: string | undefined;
    if (body.phone_number !== undefined) {
      phoneNumber = toE164(body.phone_number) ?? undefined;
      if (!phoneNumber) throw new DomainError('validation', 'Invalid phone number');
    }
    const { position, events, state } = await this.runner.run(leadStream(leadId), leadDecider, {
      type: 'UpdateLead',
      id: leadId,
      organisationId: user.organisationId,
      changes: { campaignId: body.campaign_id, phoneNumber, status: body.status, variables: body.variables },
    });
    if (state.exists && events.some((e) => e.type === 'LeadMovedToCampaign' || e.type === 'LeadPhoneNumberChanged')) {
      await this.numbers.follow(state.campaignId, state.phoneNumber, leadId);
    }
    await this.projections.settle(position);
  }
}
