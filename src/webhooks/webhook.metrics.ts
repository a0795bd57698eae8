import { Injectable } from '@nestjs/common';
import { Metrics } from '../infrastructure/metrics/metrics';

/** Webhooks' counter (docs/api.md): delivery attempts by result. */
@Injectable()
export class WebhookMetrics {
  private readonly attempts;

  constructor(metrics: Metrics) {
    this.attempts = metrics.counter('webhook_attempts_total', 'Webhook delivery attempts, by result', ['result']);
  }

  webhookAttempt(result: string): void {
    this.attempts.inc({ result });
  }
}
