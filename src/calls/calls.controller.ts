import { Permit } from '../access/permissions';
import { Get, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { AppConfig } from '../infrastructure/config/app-config';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { pageEnvelope } from '../shared/http/page-envelope';
import { JsonText } from '../shared/http/json-text';
import { listPath } from '../shared/http/page-query';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { CallListQuery } from './call.dto';
import { CallsProjection, callView } from './calls.projection';
import { CallsQueries, callListFilter } from './calls.queries';

@UserApi()
export class CallsController {
  constructor(
    private readonly read: CallsProjection,
    private readonly queries: CallsQueries,
    private readonly config: AppConfig,
  ) {}

  /** Newest first; dates are whole UTC days, both ends included (docs/api.md). */
  @Permit('read')
  @Get('calls')
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new AppValidationPipe()) query: CallListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const filter = callListFilter(user.organisationId, query);
    const [views, total] = await Promise.all([
      this.read.calls.findViews(filter, { sort: [['id', 'desc']], skip: (query.page - 1) * query.per_page, limit: query.per_page }),
      this.read.calls.count(filter),
    ]);
    const { page: _page, ...kept } = req.query as Record<string, string>;
    const { data, ...envelope } = pageEnvelope(views, total, {
      page: query.page,
      perPage: query.per_page,
      path: listPath(this.config.publicUrl, req.url.split('?')[0]),
      query: kept,
    });
    return JsonText.object(envelope, 'data', JsonText.array(data)).send(reply);
  }

  @Permit('read')
  @Get('calls/:id')
  async get(@CurrentUser() user: AuthenticatedUser, @IdParam('Call') id: number) {
    const doc = await this.queries.owned(user.organisationId, id);
    if (!doc) throw DomainError.notFound('Call');
    return callView(doc);
  }
}
