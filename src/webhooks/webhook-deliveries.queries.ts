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

  /** docs/privacy.md: when the organisation's `n`-th delivery made at or after `from` (epoch ms) was made; null with fewer. */
  async nthMadeSince(organisationId: number, from: number, n: number): Promise<number | null> {
    const filter = { user_id: organisationId, created_at: { gte: new Date(from).toISOString() } };
    const [delivery] = await this.projection.deliveries.find(filter, { sort: [['created_at', 'asc']], skip: n - 1, limit: 1 });
    return delivery ? Date.parse(delivery.created_at) : null;
  }
}
