import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CallsProjection, STUCK_CALL_GRACE_SECONDS } from '../calls/calls.projection';
import { RecordCallOutcome } from '../calls/commands/record-call-outcome';
import { AppConfig } from '../infrastructure/config/app-config';
import { BACKGROUND_WORK } from '../infrastructure/reactors/reactor';
import { Clock } from '../shared/clock';

const PAGE = 100;

/**
 * A call with no terminal status `max_call_duration` + 120 s after it started is recorded
 * `failed` (contract §9). The deadline is kept on the calls read model, so the sweep finds
 * such calls through an index, also after a restart.
 */
@Injectable()
export class StuckCallSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('StuckCalls');
  private running?: Promise<number>;

  constructor(
    private readonly commands: CommandBus,
    private readonly calls: CallsProjection,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.background) return;
    const timer = setInterval(() => void this.sweepOnce(), this.config.dialing.intervalMs);
    timer.unref();
    this.registry.addInterval('stuck-call-sweeper', timer);
  }

  async onModuleDestroy(): Promise<void> {
    if (this.registry.doesExist('interval', 'stuck-call-sweeper')) this.registry.deleteInterval('stuck-call-sweeper');
    await this.running;
  }

  /** Fails every call past its deadline; answers how many. */
  sweepOnce(): Promise<number> {
    this.running ??= this.sweep().finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweep(): Promise<number> {
    let failed = 0;
    try {
      for (;;) {
        const stuck = await this.calls.calls.find({ deadline_at: { lte: this.clock.now().getTime() } }, { sort: [['deadline_at', 'asc']], limit: PAGE });
        for (const call of stuck) {
          await this.commands.execute(new RecordCallOutcome(call.id, 'failed', {}, `no terminal status within max_call_duration + ${STUCK_CALL_GRACE_SECONDS} s`));
          failed++;
        }
        if (stuck.length < PAGE) return failed;
      }
    } catch (error) {
      this.logger.error(`Sweep failed: ${(error as Error).stack ?? error}`);
      return failed;
    }
  }
}
