import { Get, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CallsQueries } from '../calls/calls.queries';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { Permit } from '../access/permissions';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { LeadsQueries } from '../leads/leads.queries';
import { Clock } from '../shared/clock';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { DateYmd, Optional, Rules } from '../shared/validation/rules';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { ReportAnswers } from './report-answers';

export class ReportQuery {
  @Optional() @Rules(DateYmd()) date_from?: string;
  @Optional() @Rules(DateYmd()) date_to?: string;
}

/** docs/reports.md: how a campaign went, from the counters its calls and leads keep. */
@UserApi()
export class ReportsController {
  constructor(
    private readonly campaigns: CampaignsQueries,
    private readonly calls: CallsQueries,
    private readonly leads: LeadsQueries,
    private readonly clock: Clock,
  ) {}

  private readonly answers = new ReportAnswers();

  /** Dates are whole UTC days of the calls' `created_at`, both ends included, as in the calls list. */
  @Permit('read')
  @Get('campaigns/:id/report')
  async report(
    @CurrentUser() user: AuthenticatedUser,
    @IdParam('Campaign') id: number,
    @Query(new AppValidationPipe()) query: ReportQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    if (!(await this.campaigns.owned(user.organisationId, id))) throw DomainError.notFound('Campaign');
    const [days, leads] = await Promise.all([this.calls.reportDays(id, query.date_from, query.date_to), this.leads.reportCounts(id)]);
    // Written out here: the same counters give the same answer, but for the time it is made.
    reply.type('application/json; charset=utf-8');
    return this.answers.answer(id, `${query.date_from ?? ''}:${query.date_to ?? ''}`, days, leads, this.clock.now());
  }
}
