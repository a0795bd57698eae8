import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CampaignsQueries } from '../../campaigns/campaigns.queries';
import { AuthenticatedUser } from '../../infrastructure/auth/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../infrastructure/event-store/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { CheckedBody } from '../../shared/validation/validation.pipe';
import { toE164 } from '../../shared/phone';
import { CreateLeadDto } from '../lead.dto';
import { creationRefusal, leadDecider } from '../lead.decider';
import { LeadCreated, leadStream } from '../lead.events';
import { LeadDocument, createdLead } from '../leads.projection';
import { LeadsQueries } from '../leads.queries';
import { LeadNumbers } from '../lead-numbers';
import { zonesFor } from '../lead-zones';

export class CreateLead {
  constructor(
    readonly user: AuthenticatedUser,
    readonly body: CheckedBody<CreateLeadDto>,
  ) {}
}

@CommandHandler(CreateLead)
export class CreateLeadHandler implements ICommandHandler<CreateLead, LeadDocument> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly read: LeadsQueries,
    private readonly campaigns: CampaignsQueries,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly numbers: LeadNumbers,
  ) {}

  async execute({ user, body: { fields: body, errors } }: CreateLead): Promise<LeadDocument> {
    const campaignOwned = body.campaign_id !== undefined && (await this.campaigns.owned(user.id, body.campaign_id)) !== null;
    const phoneNumber = toE164(body.phone_number);
    const allowDuplicate = body.allow_dupplicate === true;
    // A request refused for its own fields also names a duplicate, as Laravel answers every
    // failed rule at once; that read only words the refusal, it decides nothing.
    const worded = Object.keys(errors).length > 0 && !allowDuplicate && campaignOwned && phoneNumber !== null;
    const duplicate = worded && (await this.read.numberTaken(user.id, body.campaign_id!, phoneNumber));
    const request = { campaignOwned, duplicate, allowDuplicate, inputErrors: errors };
    // Refused before any id is drawn: a refused lead leaves no gap in the ids.
    const refusal = creationRefusal(request);
    if (refusal) throw refusal;
    const id = await this.events.nextId('lead');
    await this.numbers.take(user.id, body.campaign_id!, phoneNumber!, id, allowDuplicate);
    const contacts = [];
    for (const contact of body.secondary_contacts ?? []) {
      const e164 = toE164(contact.phone_number)!;
      const timezone = contact.timezone ?? null;
      contacts.push({
        id: await this.events.nextId('secondary_contact'),
        phoneNumber: e164,
        variables: contact.variables ?? {},
        timezone,
        zones: zonesFor(e164, timezone),
      });
    }
    const { position, events, occurredAt } = await this.runner.run(
      leadStream(id),
      leadDecider,
      {
        type: 'CreateLead',
        id,
        userId: user.id,
        campaignId: body.campaign_id,
        phoneNumber: phoneNumber!,
        timezone: body.timezone ?? null,
        zones: zonesFor(phoneNumber!, body.timezone),
        variables: body.variables ?? {},
        contacts,
        ...request,
      },
      { retries: 0, newStream: true, metadata: { user_id: user.id } },
    );
    await this.projections.settle(position);
    // Read your writes: the list shows the lead once settled. The answer is the document the
    // projection wrote, made by the same function rather than read back.
    const created = events.find((e): e is LeadCreated => e.type === 'LeadCreated')!;
    return createdLead(created.data, occurredAt);
  }
}
