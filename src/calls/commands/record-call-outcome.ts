import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { callDecider } from '../call.decider';
import { CallDetails, CallStatus, callStream } from '../call.events';
import { CallDocument, CallsProjection } from '../calls.projection';

export class RecordCallOutcome {
  constructor(
    readonly callId: number,
    readonly status: CallStatus,
    readonly details: CallDetails = {},
    /** Why the service itself recorded it (a refused dial, a stuck call). */
    readonly reason?: string,
    /** Reported by one of many calls at once (callbacks, the simulated dialer): the append may share their commit. */
    readonly shareCommit = false,
  ) {}
}

/** The one way a call's status changes: telephony callbacks, the simulated dialer and the timeout sweep all come here. */
@CommandHandler(RecordCallOutcome)
export class RecordCallOutcomeHandler implements ICommandHandler<RecordCallOutcome, CallDocument> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly read: CallsProjection,
  ) {}

  async execute({ callId, status, details, reason, shareCommit }: RecordCallOutcome): Promise<CallDocument> {
    const command = { type: 'RecordCallOutcome' as const, id: callId, status, details, reason };
    const { position } = await this.runner.run(callStream(callId), callDecider, command, { shareCommit });
    await this.projections.settle(position);
    return (await this.read.calls.get(callId))!;
  }
}
