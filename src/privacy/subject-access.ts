import { Injectable } from '@nestjs/common';
import { callView } from '../calls/calls.projection';
import { CallsQueries } from '../calls/calls.queries';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { DoNotCallQueries } from '../do-not-call/do-not-call.queries';
import { LeadImportsQueries } from '../lead-imports/lead-imports.queries';
import { LeadDocument, leadView } from '../leads/leads.projection';
import { LeadsQueries } from '../leads/leads.queries';
import { Clock } from '../shared/clock';
import { deliveryView } from '../webhooks/webhook-deliveries.projection';
import { WebhookDeliveriesQueries } from '../webhooks/webhook-deliveries.queries';
import { SubjectLeadsProjection } from './subject-leads.projection';

/** A number as it may be written in text: E.164, and its digits with and without the country code's `+`. */
export function spellingsOf(e164: string): string[] {
  return [e164, e164.slice(1)];
}

/** Where a number is held among leads' secondary contacts. */
export function contactsNumbered(leads: readonly LeadDocument[], phoneNumber: string): Array<{ lead_id: number; contact_id: number }> {
  return leads.flatMap((lead) =>
    lead.secondary_contacts.filter((contact) => contact.phone_number === phoneNumber).map((contact) => ({ lead_id: lead.id, contact_id: contact.id })),
  );
}

/**
 * docs/privacy.md: everything an organisation holds on one number (a data subject): its leads,
 * as primary or secondary contact, with their variables; its calls with what was said and
 * recorded; whether it is on the do-not-call list; the webhook deliveries whose body names it; the
 * refused import rows that name it.
 */
@Injectable()
export class SubjectAccess {
  constructor(
    private readonly subjectLeads: SubjectLeadsProjection,
    private readonly leads: LeadsQueries,
    private readonly campaigns: CampaignsQueries,
    private readonly calls: CallsQueries,
    private readonly doNotCall: DoNotCallQueries,
    private readonly deliveries: WebhookDeliveriesQueries,
    private readonly imports: LeadImportsQueries,
    private readonly clock: Clock,
  ) {}

  async of(organisationId: number, phoneNumber: string) {
    const asSecondary = await this.subjectLeads.entries.find({ user_id: organisationId, phone_number: phoneNumber });
    const [primaries, secondaries, calls, listed, refusedRows] = await Promise.all([
      this.leads.withPrimaryNumber(organisationId, phoneNumber),
      this.leads.ofOrganisation(organisationId, [...new Set(asSecondary.map((entry) => entry.lead_id))]),
      this.calls.toNumber(organisationId, phoneNumber),
      this.doNotCall.listed(organisationId, [phoneNumber]),
      this.imports.refusedRowsNaming(organisationId, spellingsOf(phoneNumber)),
    ]);
    const held = [...primaries.map((lead) => ({ lead, as: 'primary' as const })), ...secondaries.map((lead) => ({ lead, as: 'secondary' as const }))];
    const campaigns = new Map((await this.campaigns.byIds([...new Set(held.map(({ lead }) => lead.campaign_id))])).map((c) => [c.id, c]));
    const deliveries = await this.deliveries.naming(organisationId, {
      calls: calls.map((call) => call.id),
      leads: primaries.map((lead) => lead.id),
      contacts: contactsNumbered(secondaries, phoneNumber),
    });
    return {
      phone_number: phoneNumber,
      leads: held.map(({ lead, as }) => ({ ...leadView(lead, campaigns.get(lead.campaign_id) ?? null), deleted: lead.deleted, held_as: as })),
      calls: calls.map(callView),
      do_not_call: listed.length > 0,
      webhook_deliveries: deliveries.map(deliveryView),
      import_rows: refusedRows,
      generated_at: this.clock.now().toISOString(),
    };
  }
}
