import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module';
import { CallsModule } from '../calls/calls.module';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { LeadsModule } from '../leads/leads.module';
import { DeliverWebhookHandler } from './commands/deliver-webhook';
import { WebhookMetrics } from './webhook.metrics';
import { RedeliverWebhookHandler } from './commands/redeliver-webhook';
import { RequestWebhookHandler } from './commands/request-webhook';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookDeliveriesProjection } from './webhook-deliveries.projection';
import { WebhookDeliveriesQueries } from './webhook-deliveries.queries';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookTriggersReactor } from './webhook-triggers.reactor';

@Module({
  imports: [AssistantsModule, CallsModule, CampaignsModule, LeadsModule],
  controllers: [WebhookDeliveriesController],
  providers: [
    WebhookDeliveriesProjection,
    WebhookDeliveriesQueries,
    RequestWebhookHandler,
    DeliverWebhookHandler,
    RedeliverWebhookHandler,
    WebhookTriggersReactor,
    WebhookDispatcher,
    WebhookMetrics,
  ],
  exports: [WebhookDeliveriesQueries],
})
export class WebhooksModule {}
