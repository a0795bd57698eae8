import { Permit } from '../access/permissions';
import { Get, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { Between, Int, Iso8601, Rules, Optional } from '../shared/validation/rules';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { CampaignHistory } from './campaign-history';

export class HistoryQuery {
  @Optional() @Type(() => Number) @Rules(Int(), Between(0, Number.MAX_SAFE_INTEGER)) after: number = 0;
  @Optional() @Type(() => Number) @Rules(Int(), Between(1, 1000)) limit: number = 100;
  @Optional() @Rules(Iso8601()) as_of?: string;
}

@UserApi()
export class HistoryController {
  constructor(
    private readonly campaigns: CampaignsQueries,
    private readonly history: CampaignHistory,
  ) {}

  @Permit('read')
  @Get('campaigns/:id/history')
  async trail(@CurrentUser() user: AuthenticatedUser, @IdParam('Campaign') id: number, @Query(new AppValidationPipe()) query: HistoryQuery) {
    if (!(await this.campaigns.owned(user.organisationId, id))) throw DomainError.notFound('Campaign');
    const page = await this.history.page(id, query.after, query.limit);
    return query.as_of === undefined ? page : { ...page, state: await this.history.stateAt(id, new Date(query.as_of)) };
  }
}
