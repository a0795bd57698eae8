import { Permit } from '../infrastructure/auth/permissions';
import { Get, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticatedUser } from '../infrastructure/auth/access-token-verifier';
import { CurrentUser, UserApi } from '../infrastructure/auth/user-api.decorator';
import { AppConfig } from '../infrastructure/config/app-config';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { pageEnvelope } from '../shared/http/page-envelope';
import { JsonText } from '../shared/http/json-text';
import { listPath } from '../shared/http/page-query';
import { toE164 } from '../shared/phone';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { CallListQuery } from './call.dto';
import { CallsProjection, callView } from './calls.projection';
import { CallsQueries } from './calls.queries';

@UserApi()
export class CallsController {
  constructor(
    private readonly read: CallsProjection,
    private readonly queries: CallsQueries,
    private readonly config: AppConfig,
  ) {}

  /** Newest first; dates are whole UTC days, both ends included (contract §7). */
  @Permit('read')
  @Get('calls')
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new AppValidationPipe()) query: CallListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const createdAt =
      query.date_from || query.date_to
        ? { gte: query.date_from && `${query.date_from} 00:00:00`, lte: query.date_to && `${query.date_to} 23:59:59` }
        : undefined;
    const filter = {
      user_id: user.organisationId,
      status: query.status,
      type: query.type,
      client_phone_number: query.phone_number === undefined ? undefined : (toE164(query.phone_number) ?? query.phone_number),
      assistant_id: query.assistant_id,
      campaign_id: query.campaign_id,
      created_at: createdAt,
    };
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
