import { Injectable } from '@nestjs/common';
import { CallsQueries } from '../../calls/calls.queries';
import { LeadImportsQueries } from '../../lead-imports/lead-imports.queries';
import { LeadsQueries } from '../../leads/leads.queries';
import { SubjectErased } from '../../shared/sealing/subject-erased.event';
import { contactsNumbered, spellingsOf } from '../subject-access';
import { SubjectLeadsProjection } from '../subject-leads.projection';

export type Holdings = Pick<SubjectErased['data'], 'leads' | 'contacts' | 'calls' | 'import_rows'>;

/** docs/privacy.md: what holds a number's values in an organisation, as the read models name it. */
@Injectable()
export class SubjectHoldings {
  constructor(
    private readonly subjectLeads: SubjectLeadsProjection,
    private readonly leads: LeadsQueries,
    private readonly calls: CallsQueries,
    private readonly imports: LeadImportsQueries,
  ) {}

  async of(organisationId: number, phoneNumber: string): Promise<Holdings> {
    const asSecondary = await this.subjectLeads.entries.find({ user_id: organisationId, phone_number: phoneNumber });
    const [primaries, secondaries, calls, rows] = await Promise.all([
      this.leads.withPrimaryNumber(organisationId, phoneNumber),
      this.leads.ofOrganisation(organisationId, [...new Set(asSecondary.map((entry) => entry.lead_id))]),
      this.calls.toNumber(organisationId, phoneNumber),
      this.imports.refusedRowsNaming(organisationId, spellingsOf(phoneNumber)),
    ]);
    return {
      leads: primaries.map((lead) => lead.id),
      contacts: contactsNumbered(secondaries, phoneNumber),
      calls: calls.map((call) => call.id),
      import_rows: rows.map(({ import_id, row }) => ({ import_id, row })),
    };
  }
}
