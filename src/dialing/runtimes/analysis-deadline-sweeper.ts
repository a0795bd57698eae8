import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CallsQueries } from '../../calls/calls.queries';
import { GiveUpCallAnalysis } from '../../calls/commands/record-call-outcome';
import { Sweep } from '../../infrastructure/background/sweep';
import { AppConfig } from '../../infrastructure/config/app-config';
import { WorkLeases } from '../../infrastructure/leases/work-leases';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { BACKGROUND_WORK } from '../../infrastructure/reactors/reactor';
import { Clock } from '../../shared/clock';

const PAGE = 100;

/**
 * A call whose runtime analyses it after its end (Retell) keeps its post-call webhook until the
 * analysis comes; one that has not come ANALYSIS_WAIT_SECONDS after the end is given up on, and
 * the webhook leaves without it. The deadline is on the calls read model, found by its index.
 */
@Injectable()
export class AnalysisDeadlineSweeper extends Sweep {
  constructor(
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
    private readonly projections: ProjectionRunner,
    private readonly clock: Clock,
    config: AppConfig,
    registry: SchedulerRegistry,
    @Inject(BACKGROUND_WORK) background: boolean,
    leases: WorkLeases,
  ) {
    super('AnalysisDeadlineSweeper', registry, background, config.dialing.intervalMs, PAGE, leases);
  }

  async sweepOnce(): Promise<number> {
    const overdue = await this.calls.analysisOverdue(this.clock.now().getTime(), PAGE);
    let last: number | null = null;
    for (const call of overdue)
      last = (await this.commands.execute<GiveUpCallAnalysis, { position: number | null }>(new GiveUpCallAnalysis(call.id))).position ?? last;
    await this.projections.settle(last, { background: true });
    return overdue.length;
  }
}
