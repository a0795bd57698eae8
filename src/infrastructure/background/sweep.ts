import { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { LeaseHandle, WorkLeases } from '../leases/work-leases';
import { RepeatingJob } from './repeating-job';

/**
 * A sweep over a read model that runs on the dialer's interval in the service (not in the
 * CLI), in one instance at a time: each run handles a page and answers whether a full page
 * asks for another at once.
 */
export abstract class Sweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: RepeatingJob;
  private lease?: LeaseHandle;

  protected constructor(
    name: string,
    registry: SchedulerRegistry,
    private readonly background: boolean,
    private readonly intervalMs: number,
    private readonly pageSize: number,
    private readonly leases: WorkLeases,
  ) {
    this.job = new RepeatingJob(name, registry, async () => (await this.sweepOnce()) === this.pageSize);
  }

  /** Handles one page; answers how many it handled. */
  abstract sweepOnce(): Promise<number>;

  async onApplicationBootstrap(): Promise<void> {
    if (this.background) this.lease = await this.leases.add(this.job.leased(this.intervalMs));
  }

  async onModuleDestroy(): Promise<void> {
    await this.lease?.release();
  }
}
