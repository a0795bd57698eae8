import { Inject, Injectable } from '@nestjs/common';
import { CampaignsQueries } from '../../campaigns/campaigns.queries';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { toE164 } from '../../shared/phone';
import { CheckedBody } from '../../shared/validation/validation.pipe';
import { CreateLeadDto } from '../lead.dto';
import { CreateLeadRequest, creationRefusal, leadDecider } from '../lead.decider';
import { LeadCreated, leadStream } from '../lead.events';
import { LeadNumbers } from '../lead-numbers';
import { zonesFor } from '../lead-zones';
import { LeadsQueries } from '../leads.queries';

/** A row of an import: the id set aside for it, and what its batch read already. */
export interface ImportedRow {
  leadId: number;
  /** The lead may have been made already under that id (a batch made again after a crash). */
  mayExist: boolean;
  /** The campaign's live leads with the row's number, read for the whole batch. */
  live: number[];
}

export interface LeadMade {
  /** Null when the lead existed already (a row of an import made again after a crash). */
  position: number | null;
  created: LeadCreated | null;
  occurredAt: string;
}

/**
 * Makes a lead from a checked body, for a single create and for each row of an import alike
 * (docs/api.md, docs/imports.md): the same refusals and messages, the number taken in the campaign's
 * reservation stream, one `LeadCreated`. Waiting for the projections is the caller's affair.
 */
@Injectable()
export class LeadCreation {
  constructor(
    private readonly runner: CommandRunner,
    private readonly read: LeadsQueries,
    private readonly campaigns: CampaignsQueries,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly numbers: LeadNumbers,
  ) {}

  async make(organisationId: number, { fields: body, errors }: CheckedBody<CreateLeadDto>, imported?: ImportedRow, chosenId?: number): Promise<LeadMade> {
    if (imported?.mayExist) {
      const { state } = await this.runner.load(leadStream(imported.leadId), leadDecider);
      if (state.exists) return { position: null, created: null, occurredAt: new Date().toISOString() };
    }
    const campaign = body.campaign_id === undefined ? null : await this.campaigns.owned(organisationId, body.campaign_id);
    const campaignOwned = campaign !== null;
    const phoneNumber = toE164(body.phone_number);
    const allowDuplicate = body.allow_dupplicate === true;
    // A request refused for its own fields also names a duplicate, as Laravel answers every
    // failed rule at once; that read only words the refusal, it decides nothing.
    const worded = Object.keys(errors).length > 0 && !allowDuplicate && campaignOwned && phoneNumber !== null;
    const duplicate = worded && (await this.read.numberTaken(organisationId, body.campaign_id!, phoneNumber));
    const request = { campaignOwned, duplicate, allowDuplicate, inputErrors: errors };
    // Refused before any id is drawn: a refused lead leaves no gap in the ids.
    const refusal = creationRefusal(request);
    if (refusal) throw refusal;
    const id = imported?.leadId ?? chosenId ?? (await this.events.nextId('lead'));
    // A campaign whose leads' numbers were all reserved from its start has none to look up besides.
    const live = imported?.live ?? (campaign?.numbers_reserved ? [] : undefined);
    await this.numbers.take(organisationId, body.campaign_id!, phoneNumber!, id, allowDuplicate, live);
    return this.numbers.creating(body.campaign_id!, phoneNumber!, id, () => this.append(organisationId, id, body, phoneNumber!, request));
  }

  /** The lead's one `LeadCreated`, its secondary contacts given their ids. */
  private async append(organisationId: number, id: number, body: CreateLeadDto, phoneNumber: string, request: CreateLeadRequest): Promise<LeadMade> {
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
        organisationId,
        campaignId: body.campaign_id,
        phoneNumber,
        timezone: body.timezone ?? null,
        zones: zonesFor(phoneNumber, body.timezone),
        variables: body.variables ?? {},
        contacts,
        ...request,
      },
      { retries: 0, newStream: true },
    );
    return { position, created: events.find((e): e is LeadCreated => e.type === 'LeadCreated')!, occurredAt };
  }
}
