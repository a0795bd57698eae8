import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { WebhookDeliveriesProjection, WebhookDeliveryDocument } from '../webhook-deliveries.projection';
import { webhookDecider } from '../webhook.decider';
import { webhookStream } from '../webhook.events';
import { WebhookDispatcher } from '../webhook-dispatcher';

export class RedeliverWebhook {
  constructor(
    readonly organisationId: number,
    readonly deliveryId: string,
  ) {}
}

/** Sends a delivery that ended again: a new series of attempts, same payload, signed afresh. */
@CommandHandler(RedeliverWebhook)
export class RedeliverWebhookHandler implements ICommandHandler<RedeliverWebhook, WebhookDeliveryDocument> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly deliveries: WebhookDeliveriesProjection,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  async execute({ organisationId, deliveryId }: RedeliverWebhook): Promise<WebhookDeliveryDocument> {
    const command = { type: 'RedeliverWebhook' as const, id: deliveryId, organisationId };
    const { position } = await this.runner.run(webhookStream(deliveryId), webhookDecider, command);
    await this.projections.settle(position);
    this.dispatcher.nudge();
    return (await this.deliveries.deliveries.get(deliveryId))!;
  }
}
