import { Injectable } from '@nestjs/common';
import { NamedSubject, WebhookDeliveriesProjection, WebhookDeliveryDocument } from './webhook-deliveries.projection';

/** What other features read of webhook deliveries. */
@Injectable()
export class WebhookDeliveriesQueries {
  constructor(private readonly projection: WebhookDeliveriesProjection) {}

  /** docs/privacy.md: the organisation's deliveries whose body names the person (its calls, its leads, its entries among secondary contacts), oldest first. */
  async naming(organisationId: number, subject: NamedSubject): Promise<WebhookDeliveryDocument[]> {
    return (await this.projection.naming(organisationId, subject)).map(({ delivery }) => delivery);
  }
}
