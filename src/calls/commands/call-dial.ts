import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { callDecider } from '../call.decider';
import { CallSpec, callStream } from '../call.events';

/** The dialer accepted the call's dial request. */
export class ConfirmDialSent {
  constructor(readonly callId: number) {}
}

/** Claims sending again a dial that was never confirmed: the call's spec for the one that claimed it, else null. */
export class ClaimDialResend {
  constructor(readonly callId: number) {}
}

@CommandHandler(ConfirmDialSent)
export class ConfirmDialSentHandler implements ICommandHandler<ConfirmDialSent, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId }: ConfirmDialSent): Promise<void> {
    // The provider's first reports may be writing to the call at the same moment.
    await this.runner.run(callStream(callId), callDecider, { type: 'ConfirmDialSent', id: callId }, { retries: 20 });
  }
}

@CommandHandler(ClaimDialResend)
export class ClaimDialResendHandler implements ICommandHandler<ClaimDialResend, CallSpec | null> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId }: ClaimDialResend): Promise<CallSpec | null> {
    const claimed = await this.runner.tryRun(callStream(callId), callDecider, { type: 'ClaimDialResend', id: callId });
    return claimed?.state.exists ? claimed.state.spec : null;
  }
}
