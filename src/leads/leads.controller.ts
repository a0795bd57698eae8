import { Permit } from '../access/permissions';
import { Body, Delete, Get, HttpCode, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { Exchange, HttpExchange, IdempotentRequests } from '../idempotency/idempotent-requests';
import { AppConfig } from '../infrastructure/config/app-config';
import { SortOrder } from '../shared/ports/document-store.port';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { JsonText } from '../shared/http/json-text';
import { listPath } from '../shared/http/page-query';
import { AppValidationPipe, CheckedBody, CheckedBodyPipe } from '../shared/validation/validation.pipe';
import { CreateLead } from './commands/create-lead';
import { DeleteLead } from './commands/delete-lead';
import { UpdateLead } from './commands/update-lead';
import { leadListFilter } from './leads.queries';
import { CreateLeadDto, LeadListQuery, UPDATABLE_LEAD_FIELDS, UpdateLeadDto } from './lead.dto';
import { LeadDocument, LeadsProjection, campaignOfLead, leadView } from './leads.projection';

const updatePipe = new AppValidationPipe();

@UserApi()
export class LeadsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly read: LeadsProjection,
    private readonly campaigns: CampaignsQueries,
    private readonly config: AppConfig,
    private readonly idempotent: IdempotentRequests,
  ) {}

  /** The user's API labels the success 200 (docs/api.md). */
  @Permit('leads:write')
  @Post('lead')
  @HttpCode(200)
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new CheckedBodyPipe(CreateLeadDto, { firstErrorAsMessage: true })) body: CheckedBody<CreateLeadDto>,
    @Exchange() exchange: HttpExchange,
  ) {
    const answer = async (lead: LeadDocument) => ({ message: 'Lead created successfully', data: (await this.render([lead]))[0] });
    return this.idempotent.answer(exchange, 200, async (chosen) => answer(await this.commands.execute(new CreateLead(user, body, chosen))), {
      sequence: 'lead',
      find: async (id) => {
        const lead = await this.read.leads.get(id);
        return lead && lead.user_id === user.organisationId && !lead.deleted ? answer(lead) : null;
      },
    });
  }

  /** A plain array, oldest first; the total and the next page travel in headers (docs/api.md). */
  @Permit('read')
  @Get('leads')
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new AppValidationPipe()) query: LeadListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const filter = leadListFilter(user.organisationId, query);
    const page = { sort: [['id', 'asc']] as SortOrder, skip: (query.page - 1) * query.per_page, limit: query.per_page };
    const total = await this.read.leads.count(filter);
    reply.header('X-Total-Count', String(total));
    if (query.page * query.per_page < total) {
      const params = new URLSearchParams(req.query as Record<string, string>);
      params.set('page', String(query.page + 1));
      reply.header('Link', `<${listPath(this.config.publicUrl, req.url.split('?')[0])}?${params}>; rel="next"`);
    }
    if (query.campaign_id === undefined) return this.render(await this.read.leads.find(filter, page));
    // One campaign's page: its leads' stored views, each given the campaign.
    const [views, campaign] = await Promise.all([this.read.leads.findViews(filter, page), this.campaigns.get(query.campaign_id)]);
    return JsonText.arrayWithMember(views, 'campaign', campaignOfLead(campaign)).send(reply);
  }

  @Permit('leads:write')
  @Put('leads/:id')
  async update(@CurrentUser() user: AuthenticatedUser, @IdParam('Lead') id: number, @Body() raw: unknown) {
    const invalid =
      raw && typeof raw === 'object' && !Array.isArray(raw) ? Object.keys(raw).filter((k) => !(UPDATABLE_LEAD_FIELDS as readonly string[]).includes(k)) : [];
    if (invalid.length) throw new DomainError('validation', `Invalid fields: ${invalid.join(', ')}`);
    const body = (await updatePipe.transform(raw, { type: 'body', metatype: UpdateLeadDto })) as UpdateLeadDto;
    await this.commands.execute(new UpdateLead(user, id, body));
    return { message: 'Lead updated successfully' };
  }

  @Permit('leads:write')
  @Delete('leads/:id')
  async remove(@CurrentUser() user: AuthenticatedUser, @IdParam('Lead') id: number) {
    await this.commands.execute(new DeleteLead(user, id));
    return { message: 'Lead deleted successfully' };
  }

  private async render(docs: LeadDocument[]) {
    const ids = [...new Set(docs.map((d) => d.campaign_id))];
    const campaigns = await this.campaigns.byIds(ids);
    const byId = new Map(campaigns.map((c) => [c.id, c]));
    return docs.map((doc) => leadView(doc, byId.get(doc.campaign_id) ?? null));
  }
}
