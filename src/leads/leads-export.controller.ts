import { Get, Headers, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AuthenticatedUser } from '../infrastructure/auth/access-token-verifier';
import { Permit } from '../infrastructure/auth/permissions';
import { CurrentUser, UserApi } from '../infrastructure/auth/user-api.decorator';
import { exportFormat, sendExport } from '../infrastructure/http/streamed-export';
import { Snapshot } from '../infrastructure/read-store/document-store.port';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { LeadFilterQuery } from './lead.dto';
import { LeadDocument, LeadsProjection } from './leads.projection';
import { leadListFilter } from './leads.queries';

const COLUMNS = ['id', 'campaign_id', 'phone_number', 'status', 'attempts', 'last_call_status', 'last_called_at', 'created_at'] as const;

async function* rows(snapshot: Snapshot<LeadDocument>, variables: string[]): AsyncIterable<unknown[][]> {
  for await (const page of snapshot.pages()) {
    yield page.map((lead) => [
      lead.id,
      lead.campaign_id,
      lead.phone_number,
      lead.status,
      lead.attempts,
      lead.last_call_status,
      lead.last_called_at,
      lead.created_at,
      ...variables.map((name) => lead.variables?.[name] ?? null),
    ]);
  }
}

/** Contract §20: the live leads of the list's filters, newest first, as CSV or NDJSON, streamed from one moment of the read store. */
@UserApi()
export class LeadsExportController {
  constructor(private readonly read: LeadsProjection) {}

  @Permit('read')
  @Get('leads/export')
  async export(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new AppValidationPipe()) query: LeadFilterQuery,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const snapshot = await this.read.leads.snapshot(leadListFilter(user.organisationId, query));
    try {
      const variables = await snapshot.keysOf('variables');
      await sendExport(reply, exportFormat(accept), 'leads', [...COLUMNS, ...variables.map((name) => `var_${name}`)], rows(snapshot, variables));
    } finally {
      await snapshot.close();
    }
  }
}
