import { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { RepeatingJob } from './repeating-job';

/**
 * A sweep over a read model that runs on the dialer's interval in the service (not in the
 * CLI): each run handles a page and answers whether a full page asks for another at once.
 */
export abstract class Sweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: RepeatingJob;

  protected constructor(
    name: string,
    registry: SchedulerRegistry,
    private readonly background: boolean,
    private readonly intervalMs: number,
    private readonly pageSize: number,
  ) {
    this.job = new RepeatingJob(name, registry, async () => (await this.sweepOnce()) === this.pageSize);
  }

  /** Handles one page; answers how many it handled. */
  abstract sweepOnce(): Promise<number>;

  onApplicationBootstrap(): void {
    if (this.background) this.job.start(this.intervalMs);
  }

  onModuleDestroy(): Promise<void> {
    return this.job.stop();
  }
}
