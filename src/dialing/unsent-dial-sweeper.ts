import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CallSpec } from '../calls/call.events';
import { CallsQueries } from '../calls/calls.queries';
import { ClaimDialResend } from '../calls/commands/call-dial';
import { Sweep } from '../infrastructure/background/sweep';
import { WorkLeases } from '../infrastructure/leases/work-leases';
import { AppConfig } from '../infrastructure/config/app-config';
import { BACKGROUND_WORK } from '../infrastructure/reactors/reactor';
import { Clock } from '../shared/clock';
import { CallPlacer } from './call-placer';

const PAGE = 100;

/**
 * Contract §12, "a crash before the dial costs nothing": a call whose dial was never
 * confirmed `resendAfterSeconds` after it was sent (its process died before or during the
 * dial) is sent again under the same call id, which providers deduplicate on. Each resend is
 * claimed by an append with the expected revision, so one process sends it.
 */
@Injectable()
export class UnsentDialSweeper extends Sweep {
  constructor(
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
    private readonly placer: CallPlacer,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    registry: SchedulerRegistry,
    @Inject(BACKGROUND_WORK) background: boolean,
    leases: WorkLeases,
  ) {
    super('UnsentDialSweeper', registry, background, config.dialing.intervalMs, PAGE, leases);
  }

  /** Sends again a page of dials overdue for confirmation; answers how many it claimed. */
  async sweepOnce(): Promise<number> {
    const before = this.clock.now().getTime() - this.config.dialing.resendAfterSeconds * 1000;
    const due = await this.calls.unsentBefore(before, PAGE);
    let claimed = 0;
    for (const call of due) {
      const spec = await this.commands.execute<ClaimDialResend, CallSpec | null>(new ClaimDialResend(call.id));
      if (!spec) continue;
      claimed++;
      await this.placer.place(call.id, spec);
    }
    return claimed;
  }
}
