import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { BACKGROUND_WORK } from '../infrastructure/reactors/reactor';
import { Clock } from '../shared/clock';
import { DeliverWebhook } from './commands/deliver-webhook';
import { WebhookDeliveriesProjection } from './webhook-deliveries.projection';

const POLL_MS = 250;
/** Attempts sent at once: a slow receiver holds one of these for up to 10 s, not the whole queue. */
const PARALLEL = 16;

/**
 * Sends the attempts that are due. Due times live on the deliveries read model, so
 * pending retries are found again after a restart.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private running?: Promise<void>;
  private pending = false;
  private stopped = false;

  constructor(
    private readonly commands: CommandBus,
    private readonly deliveries: WebhookDeliveriesProjection,
    private readonly clock: Clock,
    private readonly registry: SchedulerRegistry,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.background) return;
    const timer = setInterval(() => this.nudge(), POLL_MS);
    timer.unref();
    this.registry.addInterval('webhook-dispatcher', timer);
    this.nudge();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.registry.doesExist('interval', 'webhook-dispatcher')) this.registry.deleteInterval('webhook-dispatcher');
    await this.running;
  }

  nudge(): void {
    if (this.stopped || !this.background) return;
    this.pending = true;
    if (this.running) return;
    this.running = this.loop().finally(() => (this.running = undefined));
  }

  private async loop(): Promise<void> {
    while (this.pending && !this.stopped) {
      this.pending = false;
      try {
        const due = await this.deliveries.deliveries.find({ next_attempt_at: { lte: this.clock.now().getTime() } }, { sort: [['next_attempt_at', 'asc']], limit: PARALLEL });
        const sent = await Promise.all(due.map((d) => this.commands.execute(new DeliverWebhook(d.id))));
        if (sent.some(Boolean)) this.pending = true;
      } catch (error) {
        this.logger.error(`Webhook dispatch failed: ${(error as Error).stack ?? error}`);
      }
    }
  }
}
