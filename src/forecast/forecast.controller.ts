import { Get, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { Permit } from '../access/permissions';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { AppConfig } from '../infrastructure/config/app-config';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { pageEnvelope } from '../shared/http/page-envelope';
import { PageQuery, listPath } from '../shared/http/page-query';

import { Iso8601, OneOf, Optional, Rules } from '../shared/validation/rules';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { runInSteps } from '../shared/yield-to-io';
import { CampaignForecasts } from './campaign-forecast';

export class ForecastQuery {
  @Optional() @Rules(Iso8601()) from?: string;
}

export class ForecastLeadsQuery extends PageQuery(100) {
  @Optional() @Rules(Iso8601()) from?: string;
  /** `true`: only the leads never callable, with why. */
  @Optional() @Rules(OneOf(['true', 'false'])) never_callable?: 'true' | 'false';
}

/** docs/forecast.md: when a campaign's leads will be dialed and when it ends, before it starts. */
@UserApi()
export class ForecastController {
  constructor(
    private readonly campaigns: CampaignsQueries,
    private readonly forecasts: CampaignForecasts,
    private readonly config: AppConfig,
  ) {}

  private async forecast(organisationId: number, id: number, from: string | undefined) {
    const campaign = await this.campaigns.owned(organisationId, id);
    if (!campaign) throw DomainError.notFound('Campaign');
    return this.forecasts.of(campaign, from === undefined ? undefined : new Date(from));
  }

  @Permit('read')
  @Get('campaigns/:id/forecast')
  async show(@CurrentUser() user: AuthenticatedUser, @IdParam('Campaign') id: number, @Query(new AppValidationPipe()) query: ForecastQuery) {
    const { perLead: _leads, ...forecast } = await this.forecast(user.organisationId, id, query.from);
    return forecast;
  }

  /** Each lead's first expected dial, or why it never will be, in the leads' order. */
  @Permit('read')
  @Get('campaigns/:id/forecast/leads')
  async leads(
    @CurrentUser() user: AuthenticatedUser,
    @IdParam('Campaign') id: number,
    @Query(new AppValidationPipe()) query: ForecastLeadsQuery,
    @Req() req: FastifyRequest,
  ) {
    const forecast = await this.forecast(user.organisationId, id, query.from);
    const all = await runInSteps(forecast.perLead());
    const perLead = query.never_callable === 'true' ? all.filter((lead) => lead.reason !== null) : all;
    const page = perLead.slice((query.page - 1) * query.per_page, query.page * query.per_page);
    const { page: _page, ...kept } = req.query as Record<string, string>;
    return pageEnvelope(page, perLead.length, {
      page: query.page,
      perPage: query.per_page,
      path: listPath(this.config.publicUrl, req.url.split('?')[0]),
      query: kept,
    });
  }
}
