import { Get, Headers, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { Permit } from '../access/permissions';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { exportSnapshot } from '../shared/http/streamed-export';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { isTerminal } from './call-status';
import { CallFilterQuery } from './call.dto';
import { callListFilter } from './calls.queries';
import { CallDocument, CallsProjection } from './calls.projection';

const COLUMNS = [
  'id',
  'campaign_id',
  'lead_id',
  'secondary_contact_id',
  'client_phone_number',
  'type',
  'status',
  'answered_by',
  'duration',
  'total_cost',
  'recording_url',
  'created_at',
  'ended_at',
] as const;

/** One call's row, before its variables. */
function row(call: CallDocument): unknown[] {
  return [
    call.id,
    call.campaign_id,
    call.lead_id,
    call.secondary_contact_id,
    call.client_phone_number,
    call.type,
    call.status,
    call.answered_by,
    call.duration,
    call.total_cost,
    call.record ? call.recording_url : null,
    call.created_at,
    isTerminal(call.status) ? call.updated_at : null,
  ];
}

/** docs/reports.md: the calls of the list's filters, newest first, as CSV or NDJSON, streamed from one moment of the read store. */
@UserApi()
export class CallsExportController {
  constructor(private readonly read: CallsProjection) {}

  @Permit('read')
  @Get('calls/export')
  async export(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new AppValidationPipe()) query: CallFilterQuery,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await exportSnapshot(reply, accept, 'calls', COLUMNS, await this.read.calls.snapshot(callListFilter(user.organisationId, query)), row);
  }
}
