import { Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedUser } from '../infrastructure/auth/access-token-verifier';
import { CurrentUser, UserApi } from '../infrastructure/auth/user-api.decorator';
import { AppConfig } from '../infrastructure/config/app-config';
import { DomainError } from '../shared/domain-error';
import { pageEnvelope } from '../shared/http/page-envelope';
import { listPath } from '../shared/http/page-query';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { RedeliverWebhook } from './commands/redeliver-webhook';
import { WebhookDeliveryListQuery } from './webhook-delivery.dto';
import { WebhookDeliveriesProjection, WebhookDeliveryDocument, deliveryDetail, deliveryView } from './webhook-deliveries.projection';

/** The user's webhook deliveries (contract §14): what was sent, what came back, and sending one again. */
@UserApi()
export class WebhookDeliveriesController {
  constructor(
    private readonly read: WebhookDeliveriesProjection,
    private readonly commands: CommandBus,
    private readonly config: AppConfig,
  ) {}

  /** Newest first. */
  @Get('webhook-deliveries')
  async list(@CurrentUser() user: AuthenticatedUser, @Query(new AppValidationPipe()) query: WebhookDeliveryListQuery, @Req() req: FastifyRequest) {
    const status = query.status === 'pending' ? { in: ['pending', 'retrying'] } : query.status;
    const filter = { user_id: user.id, call_id: query.call_id, status };
    const [docs, total] = await Promise.all([
      this.read.deliveries.find(filter, {
        sort: [
          ['created_at', 'desc'],
          ['id', 'desc'],
        ],
        skip: (query.page - 1) * query.per_page,
        limit: query.per_page,
      }),
      this.read.deliveries.count(filter),
    ]);
    const { page: _page, ...kept } = req.query as Record<string, string>;
    return pageEnvelope(docs.map(deliveryView), total, {
      page: query.page,
      perPage: query.per_page,
      path: listPath(this.config.publicUrl, req.url.split('?')[0]),
      query: kept,
    });
  }

  @Get('webhook-deliveries/:id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return deliveryDetail(await this.owned(user, id));
  }

  @Post('webhook-deliveries/:id/redeliver')
  @HttpCode(202)
  async redeliver(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.owned(user, id);
    const doc = await this.commands.execute<RedeliverWebhook, WebhookDeliveryDocument>(new RedeliverWebhook(user.id, id));
    return { message: 'Redelivery scheduled.', data: deliveryView(doc) };
  }

  private async owned(user: AuthenticatedUser, id: string): Promise<WebhookDeliveryDocument> {
    const doc = id.length <= 64 ? await this.read.deliveries.get(id) : null;
    if (!doc || doc.user_id !== user.id) throw DomainError.notFound('Webhook delivery');
    return doc;
  }
}
