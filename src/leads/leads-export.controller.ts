import { Get, Headers, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { Permit } from '../access/permissions';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { exportSnapshot } from '../shared/http/streamed-export';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { LeadFilterQuery } from './lead.dto';
import { LeadDocument, LeadsProjection } from './leads.projection';
import { leadListFilter } from './leads.queries';

const COLUMNS = ['id', 'campaign_id', 'phone_number', 'status', 'attempts', 'last_call_status', 'last_called_at', 'created_at'] as const;

/** One lead's row, before its variables. */
const row = (lead: LeadDocument): unknown[] => [
  lead.id,
  lead.campaign_id,
  lead.phone_number,
  lead.status,
  lead.attempts,
  lead.last_call_status,
  lead.last_called_at,
  lead.created_at,
];

/** docs/reports.md: the live leads of the list's filters, newest first, as CSV or NDJSON, streamed from one moment of the read store. */
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
    await exportSnapshot(reply, accept, 'leads', COLUMNS, await this.read.leads.snapshot(leadListFilter(user.organisationId, query)), row);
  }
}
