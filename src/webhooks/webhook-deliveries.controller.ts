import { Permit } from '../access/permissions';
import { Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { AppConfig } from '../infrastructure/config/app-config';
import { DomainError } from '../shared/domain-error';
import { pagedList } from '../shared/http/paged-list';
import { SortOrder } from '../shared/ports/document-store.port';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { RedeliverWebhook } from './commands/redeliver-webhook';
import { WebhookDeliveryListQuery } from './webhook-delivery.dto';
import { WebhookDeliveriesProjection, WebhookDeliveryDocument, deliveryDetail, deliveryView } from './webhook-deliveries.projection';

/** The user's webhook deliveries (docs/api.md): what was sent, what came back, and sending one again. */
@UserApi()
export class WebhookDeliveriesController {
  constructor(
    private readonly read: WebhookDeliveriesProjection,
    private readonly commands: CommandBus,
    private readonly config: AppConfig,
  ) {}

  /** Newest first. */
  @Permit('read')
  @Get('webhook-deliveries')
  async list(@CurrentUser() user: AuthenticatedUser, @Query(new AppValidationPipe()) query: WebhookDeliveryListQuery, @Req() req: FastifyRequest) {
    const status = query.status === 'pending' ? { in: ['pending', 'retrying'] } : query.status;
    const sort: SortOrder = [
      ['created_at', 'desc'],
      ['id', 'desc'],
    ];
    return pagedList(
      this.read.deliveries,
      { user_id: user.organisationId, call_id: query.call_id, status },
      sort,
      query,
      req,
      this.config.publicUrl,
      deliveryView,
    );
  }

  @Permit('read')
  @Get('webhook-deliveries/:id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return deliveryDetail(await this.owned(user, id));
  }

  @Permit('webhooks:write')
  @Post('webhook-deliveries/:id/redeliver')
  @HttpCode(202)
  async redeliver(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.owned(user, id);
    const doc = await this.commands.execute<RedeliverWebhook, WebhookDeliveryDocument>(new RedeliverWebhook(user.organisationId, id));
    return { message: 'Redelivery scheduled.', data: deliveryView(doc) };
  }

  private async owned(user: AuthenticatedUser, id: string): Promise<WebhookDeliveryDocument> {
    const doc = id.length <= 64 ? await this.read.deliveries.get(id) : null;
    if (!doc || doc.user_id !== user.organisationId) throw DomainError.notFound('Webhook delivery');
    return doc;
  }
}
