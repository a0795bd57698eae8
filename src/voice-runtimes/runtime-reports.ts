import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordCallOutcome } from '../calls/commands/record-call-outcome';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { Clock } from '../shared/clock';
import { DomainError } from '../shared/domain-error';
import { CAPACITY_WAIT_MS } from './runtime-http';
import { RuntimeReport } from './runtime-report';

/** What a runtime's messages change on a call, recorded through the one command every status change takes. */
@Injectable()
export class RuntimeReports {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
    private readonly clock: Clock,
  ) {}

  /**
   * Records the report; one that would move the call backwards (repeated, late) changes nothing.
   * A call ended for the runtime's concurrency uses no attempt: its lead is due again in 60 s.
   * `analysisFollows`: the runtime analyses the call after this end; its webhook waits for that.
   */
  async record(callId: number, report: RuntimeReport, analysisFollows = false): Promise<void> {
    const retryAt = report.atCapacity ? new Date(this.clock.now().getTime() + CAPACITY_WAIT_MS).toISOString() : undefined;
    const options = { reason: report.reason, analysisFollows, ...(retryAt ? { notDialed: 'runtime-at-capacity' as const, retryAt } : {}) };
    try {
      const { position } = await this.commands.execute(new RecordCallOutcome(callId, report.status, report.details, options));
      await this.projections.settle(position);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'conflict') return;
      throw error;
    }
  }
}
