import { Injectable } from '@nestjs/common';
import { WebhookDeliveriesProjection, WebhookDeliveryDocument } from './webhook-deliveries.projection';

/** What other features read of webhook deliveries. */
@Injectable()
export class WebhookDeliveriesQueries {
  constructor(private readonly projection: WebhookDeliveriesProjection) {}

  /** docs/privacy.md: the organisation's deliveries about those calls. */
  async forCalls(organisationId: number, callIds: number[]): Promise<WebhookDeliveryDocument[]> {
    const found = await Promise.all(callIds.map((call_id) => this.projection.deliveries.find({ call_id }, { sort: [['created_at', 'asc']] })));
    return found.flat().filter((delivery) => delivery.user_id === organisationId);
  }
}
