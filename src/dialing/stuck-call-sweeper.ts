import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { STUCK_CALL_GRACE_SECONDS } from '../calls/calls.projection';
import { CallsQueries } from '../calls/calls.queries';
import { GiveUpCallAnalysis, RecordCallOutcome } from '../calls/commands/record-call-outcome';
import { Sweep } from '../infrastructure/background/sweep';
import { WorkLeases } from '../infrastructure/leases/work-leases';
import { DialingSettings } from './dialing-settings';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { BACKGROUND_WORK } from '../infrastructure/reactors/reactor';
import { Clock } from '../shared/clock';

const PAGE = 100;

/**
 * A call with no terminal status `max_call_duration` + 120 s after it started is recorded
 * `failed` (docs/dialing.md); an analysis awaited ANALYSIS_WAIT_SECONDS after a call's end (Retell's)
 * is given up, so the call's webhook leaves without it (docs/real-calls.md). Both deadlines are kept on
 * the calls read model, so the sweep finds such calls through an index, also after a restart.
 */
@Injectable()
export class StuckCallSweeper extends Sweep {
  constructor(
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
    private readonly projections: ProjectionRunner,
    private readonly clock: Clock,
    settings: DialingSettings,
    registry: SchedulerRegistry,
    @Inject(BACKGROUND_WORK) background: boolean,
    leases: WorkLeases,
  ) {
    super('StuckCallSweeper', registry, background, settings.intervalMs, PAGE, leases);
  }

  /** Fails a page of calls past their deadline, and gives up a page of overdue analyses; answers the larger page. */
  async sweepOnce(): Promise<number> {
    const now = this.clock.now().getTime();
    const [stuck, unanalysed] = await Promise.all([this.calls.overdue(now, PAGE), this.calls.analysisOverdue(now, PAGE)]);
    const reason = `no terminal status within max_call_duration + ${STUCK_CALL_GRACE_SECONDS} s`;
    let last: number | null = null;
    const run = async (command: RecordCallOutcome | GiveUpCallAnalysis) =>
      (last = (await this.commands.execute<typeof command, { position: number | null }>(command)).position ?? last);
    for (const call of stuck) await run(new RecordCallOutcome(call.id, 'failed', {}, { reason }));
    for (const call of unanalysed) await run(new GiveUpCallAnalysis(call.id));
    // The next page is read from the calls read model: it must no longer hold these.
    await this.projections.settle(last, { background: true });
    return Math.max(stuck.length, unanalysed.length);
  }
}
