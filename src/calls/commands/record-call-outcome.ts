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

  async execute({ callId, status, details, reason }: RecordCallOutcome): Promise<CallDocument> {
    const { position } = await this.runner.run(callStream(callId), callDecider, { type: 'RecordCallOutcome', id: callId, status, details, reason });
    await this.projections.settle(position);
    return (await this.read.calls.get(callId))!;
  }
}
