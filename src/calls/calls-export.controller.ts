import { Get, Headers, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AuthenticatedUser } from '../infrastructure/auth/access-token-verifier';
import { Permit } from '../infrastructure/auth/permissions';
import { CurrentUser, UserApi } from '../infrastructure/auth/user-api.decorator';
import { exportFormat, sendExport } from '../infrastructure/http/streamed-export';
import { Snapshot } from '../infrastructure/read-store/document-store.port';
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

/** One call's row: its columns, then its value of each variable seen (empty where it has none). */
function row(call: CallDocument, variables: string[]): unknown[] {
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
    ...variables.map((name) => call.variables?.[name] ?? null),
  ];
}

async function* rows(snapshot: Snapshot<CallDocument>, variables: string[]): AsyncIterable<unknown[][]> {
  for await (const page of snapshot.pages()) yield page.map((call) => row(call, variables));
}

/** Contract §20: the calls of the list's filters, newest first, as CSV or NDJSON, streamed from one moment of the read store. */
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
    const snapshot = await this.read.calls.snapshot(callListFilter(user.organisationId, query));
    try {
      const variables = await snapshot.keysOf('variables');
      await sendExport(reply, exportFormat(accept), 'calls', [...COLUMNS, ...variables.map((name) => `var_${name}`)], rows(snapshot, variables));
    } finally {
      await snapshot.close();
    }
  }
}
