import { Permit } from '../access/permissions';
import { Body, Get, HttpCode, Post, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { Exchange, HttpExchange, IdempotentRequests } from '../idempotency/idempotent-requests';
import { AppConfig } from '../infrastructure/config/app-config';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { pageEnvelope } from '../shared/http/page-envelope';
import { PageQuery, listPath } from '../shared/http/page-query';
import { AppValidationPipe, CheckedBody, CheckedBodyPipe } from '../shared/validation/validation.pipe';
import { CampaignView } from './campaign-view';
import { CreateCampaignDto, UpdateCampaignDto, UpdateCampaignStatusDto } from './campaign.dto';
import { CampaignsProjection } from './campaigns.projection';
import { CampaignsQueries } from './campaigns.queries';
import { ChangeCampaignStatus } from './commands/change-campaign-status';
import { CreateCampaign } from './commands/create-campaign';
import { UpdateCampaign } from './commands/update-campaign';

export class CampaignPageQuery extends PageQuery(15) {}

@UserApi()
export class CampaignsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly read: CampaignsProjection,
    private readonly queries: CampaignsQueries,
    private readonly view: CampaignView,
    private readonly config: AppConfig,
    private readonly idempotent: IdempotentRequests,
  ) {}

  @Permit('campaigns:write')
  @Post('campaigns')
  @HttpCode(201)
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new CheckedBodyPipe(CreateCampaignDto)) body: CheckedBody<CreateCampaignDto>,
    @Exchange() exchange: HttpExchange,
  ) {
    const answer = async (id: number) => ({ message: 'Campaign created successfully', data: await this.one(user, id) });
    return this.idempotent.answer(exchange, 201, async (chosen) => answer(await this.commands.execute(new CreateCampaign(user, body, chosen))), {
      sequence: 'campaign',
      find: async (id) => ((await this.queries.owned(user.organisationId, id)) ? answer(id) : null),
    });
  }

  /** docs/api.md: every answer of this route, refusals included, carries `success`. */
  @Permit('campaigns:write')
  @Post('campaigns/update-status')
  @HttpCode(200)
  async updateStatus(@CurrentUser() user: AuthenticatedUser, @Body(new AppValidationPipe()) body: UpdateCampaignStatusDto) {
    try {
      const status = await this.commands.execute(new ChangeCampaignStatus(user, body.campaign_id, body.action));
      const message = body.action === 'start' ? 'Campaign started successfully.' : 'Campaign stopped successfully.';
      return { message, success: true, data: { campaign_id: body.campaign_id, status } };
    } catch (error) {
      if (error instanceof DomainError) throw new DomainError(error.kind, error.message, error.errors, { ...error.extra, success: false });
      throw error;
    }
  }

  @Permit('read')
  @Get('campaigns')
  async list(@CurrentUser() user: AuthenticatedUser, @Query(new AppValidationPipe()) query: CampaignPageQuery, @Req() req: FastifyRequest) {
    const filter = { user_id: user.organisationId };
    const [docs, total] = await Promise.all([
      this.read.campaigns.find(filter, { sort: [['id', 'asc']], skip: (query.page - 1) * query.per_page, limit: query.per_page }),
      this.read.campaigns.count(filter),
    ]);
    return pageEnvelope(await this.view.render(docs), total, {
      page: query.page,
      perPage: query.per_page,
      path: listPath(this.config.publicUrl, req.url.split('?')[0]),
      query: { per_page: query.per_page },
    });
  }

  @Permit('read')
  @Get('campaigns/:id')
  get(@CurrentUser() user: AuthenticatedUser, @IdParam('Campaign') id: number) {
    return this.one(user, id);
  }

  @Permit('campaigns:write')
  @Put('campaigns/:id')
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @IdParam('Campaign') id: number,
    @Body(new CheckedBodyPipe(UpdateCampaignDto)) body: CheckedBody<UpdateCampaignDto>,
  ) {
    await this.commands.execute(new UpdateCampaign(user, id, body));
    return { message: 'Campaign updated successfully', data: await this.one(user, id) };
  }

  private async one(user: AuthenticatedUser, id: number) {
    const doc = await this.queries.owned(user.organisationId, id);
    if (!doc) throw DomainError.notFound('Campaign');
    return (await this.view.render([doc]))[0];
  }
}
