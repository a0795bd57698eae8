import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { CallsMetrics } from '../calls.metrics';
import { isTerminal } from '../call-status';
import { callDecider } from '../call.decider';
import { CallAnalysis, CallDetails, CallProvider, CallStatus, NotDialedReason, callStream } from '../call.events';

export interface RecordCallOutcomeOptions {
  /** Why the service itself recorded it (a refused dial, a stuck call). */
  reason?: string;
  /** The call was never dialed (it ends `failed`, the closest status the interface has). */
  notDialed?: NotDialedReason;
  /** With `runtime-at-capacity`: when its lead may be dialed again. */
  retryAt?: string;
  /** The runtime analyses the call after this end: the call's webhook waits for it. */
  analysisFollows?: boolean;
  /** The runtime reporting it (docs/real-calls.md: a call's outcome is taken only from the runtime that placed it). */
  reportedBy?: CallProvider;
}

export class RecordCallOutcome {
  constructor(
    readonly callId: number,
    readonly status: CallStatus,
    readonly details: CallDetails = {},
    readonly options: RecordCallOutcomeOptions = {},
  ) {}
}

/**
 * The one way a call's status changes: telephony callbacks, the simulated dialer and the
 * timeout sweep all come here. Answers the position of what it recorded; a caller that
 * shows the call waits for the read model itself (the dialer and the sweep do not).
 */
@CommandHandler(RecordCallOutcome)
export class RecordCallOutcomeHandler implements ICommandHandler<RecordCallOutcome, { position: number | null }> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly metrics: CallsMetrics,
  ) {}

  async execute({ callId, status, details, options }: RecordCallOutcome): Promise<{ position: number | null }> {
    const command = {
      type: 'RecordCallOutcome' as const,
      id: callId,
      status,
      details,
      reason: options.reason,
      notDialed: options.notDialed,
      retryAt: options.retryAt,
      analysisFollows: options.analysisFollows,
      reportedBy: options.reportedBy,
    };
    const { position, events } = await this.runner.run(callStream(callId), callDecider, command);
    if (events.length && isTerminal(status)) this.metrics.callFinished(status);
    return { position };
  }
}

/** The runtime's analysis of an ended call: its extracted fields and verdict (docs/real-calls.md). */
export class RecordCallAnalysis {
  constructor(
    readonly callId: number,
    readonly analysis: CallAnalysis,
  ) {}
}

@CommandHandler(RecordCallAnalysis)
export class RecordCallAnalysisHandler implements ICommandHandler<RecordCallAnalysis, { position: number | null }> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId, analysis }: RecordCallAnalysis): Promise<{ position: number | null }> {
    const { position } = await this.runner.run(callStream(callId), callDecider, { type: 'RecordCallAnalysis', id: callId, analysis }, { retries: 10 });
    return { position };
  }
}

/** The analysis awaited since the call's end did not come in time (see ANALYSIS_WAIT_SECONDS). */
export class GiveUpCallAnalysis {
  constructor(readonly callId: number) {}
}

@CommandHandler(GiveUpCallAnalysis)
export class GiveUpCallAnalysisHandler implements ICommandHandler<GiveUpCallAnalysis, { position: number | null }> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId }: GiveUpCallAnalysis): Promise<{ position: number | null }> {
    const { position } = await this.runner.run(callStream(callId), callDecider, { type: 'GiveUpCallAnalysis', id: callId }, { retries: 10 });
    return { position };
  }
}
