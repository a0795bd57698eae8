import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { RepeatingJob } from '../infrastructure/background/repeating-job';
import { LeaseHandle, WorkLeases } from '../infrastructure/leases/work-leases';
import { BACKGROUND_WORK } from '../infrastructure/reactors/reactor';
import { Clock } from '../shared/clock';
import { DeliverWebhook } from './commands/deliver-webhook';
import { WebhookDeliveriesProjection } from './webhook-deliveries.projection';

const POLL_MS = 250;
/** Attempts sent at once: a slow receiver holds one of these for up to 10 s, not the whole queue. */
const PARALLEL = 16;

/**
 * Sends the attempts that are due, in one instance at a time. Due times live on the deliveries
 * read model, so pending retries are found again after a restart.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: RepeatingJob;
  private lease?: LeaseHandle;

  constructor(
    private readonly commands: CommandBus,
    private readonly deliveries: WebhookDeliveriesProjection,
    private readonly clock: Clock,
    registry: SchedulerRegistry,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
    private readonly leases: WorkLeases,
  ) {
    this.job = new RepeatingJob('WebhookDispatcher', registry, () => this.sendDue());
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.background) this.lease = await this.leases.add(this.job.leased(POLL_MS));
  }

  async onModuleDestroy(): Promise<void> {
    await this.lease?.release();
  }

  nudge(): void {
    this.job.nudge();
  }

  /** Sends what is due; answers whether anything was sent (then more may be due). */
  private async sendDue(): Promise<boolean> {
    const due = await this.deliveries.deliveries.find(
      { next_attempt_at: { lte: this.clock.now().getTime() } },
      { sort: [['next_attempt_at', 'asc']], limit: PARALLEL },
    );
    const sent = await Promise.all(due.map((d) => this.commands.execute(new DeliverWebhook(d.id))));
    return sent.some(Boolean);
  }
}
