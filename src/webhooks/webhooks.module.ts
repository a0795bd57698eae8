import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module';
import { CallsModule } from '../calls/calls.module';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { LeadsModule } from '../leads/leads.module';
import { DeliverWebhookHandler } from './commands/deliver-webhook';
import { RequestWebhookHandler } from './commands/request-webhook';
import { WebhookDeliveriesProjection } from './webhook-deliveries.projection';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookTriggersReactor } from './webhook-triggers.reactor';

@Module({
  imports: [AssistantsModule, CallsModule, CampaignsModule, LeadsModule],
  providers: [WebhookDeliveriesProjection, RequestWebhookHandler, DeliverWebhookHandler, WebhookTriggersReactor, WebhookDispatcher],
})
export class WebhooksModule {}
