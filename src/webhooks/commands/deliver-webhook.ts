import { Sealer } from '../../shared/sealing/sealer';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WebhookSettings } from '../webhook-settings';
import { WebhookMetrics } from '../webhook.metrics';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { OutboundFailure, OutboundHttp } from '../../infrastructure/outbound/outbound-http';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { parsedOrText } from '../../shared/parsed-or-text';
import { sign } from '../../shared/signature';
import { UsersQueries } from '../../users/users.queries';
import { WebhookDeliveriesProjection } from '../webhook-deliveries.projection';
import { AttemptResult, webhookDecider } from '../webhook.decider';
import { webhookStream } from '../webhook.events';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export class DeliverWebhook {
  constructor(readonly deliveryId: string) {}
}

/**
 * One attempt: take it (an append with the expected revision, so one sender per attempt
 * across instances), POST the signed payload, record the answer. Answers whether it ran.
 */
@CommandHandler(DeliverWebhook)
export class DeliverWebhookHandler implements ICommandHandler<DeliverWebhook, boolean> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly deliveries: WebhookDeliveriesProjection,
    private readonly users: UsersQueries,
    private readonly http: OutboundHttp,
    private readonly settings: WebhookSettings,
    private readonly metrics: WebhookMetrics,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
  ) {}

  async execute({ deliveryId }: DeliverWebhook): Promise<boolean> {
    const stream = webhookStream(deliveryId);
    const started = await this.runner.tryRun(stream, webhookDecider, { type: 'StartWebhookAttempt', id: deliveryId });
    if (!started?.state.exists) return false;
    const attempt = started.state.attempts;
    const delivery = (await this.deliveries.deliveries.get(deliveryId))!;
    const user = await this.users.get(delivery.user_id);
    const body = JSON.stringify(delivery.payload);
    const result = await this.send(delivery.url, body, user ? await this.sealer.open(user.webhook_secret) : '');
    this.metrics.webhookAttempt(
      result.status_code === null ? 'unreachable' : result.status_code < 300 ? 'delivered' : `http_${Math.floor(result.status_code / 100)}xx`,
    );
    const { position } = await this.runner.run(stream, webhookDecider, {
      type: 'FinishWebhookAttempt',
      id: deliveryId,
      attempt,
      result,
      retryDelaysSeconds: this.settings.retryDelaysSeconds,
    });
    await this.projections.settle(position);
    return true;
  }

  private async send(url: string, body: string, secret: string): Promise<AttemptResult> {
    // docs/api.md: the timestamp is signed with the body, so a receiver can refuse a replayed one.
    const timestamp = String(Math.floor(this.clock.now().getTime() / 1000));
    try {
      const response = await this.http.send({
        url,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'voice-campaigns-webhooks',
          'x-webhook-signature': sign(body, secret),
          'x-webhook-timestamp': timestamp,
          'x-webhook-signature-v2': sign(`${timestamp}.${body}`, secret),
        },
        body,
        timeoutMs: WEBHOOK_TIMEOUT_MS,
      });
      return { status_code: response.status, body: parsedOrText(response.body), error: null, retryable: response.status >= 500 };
    } catch (error) {
      if (!(error instanceof OutboundFailure)) throw error;
      return { status_code: null, body: null, error: error.message, retryable: error.kind !== 'refused' };
    }
  }
}
