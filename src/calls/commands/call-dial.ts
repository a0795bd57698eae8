import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { callDecider } from '../call.decider';
import { callStream } from '../call.events';

/** The dialer accepted the call's dial request. */
export class ConfirmDialSent {
  constructor(readonly callId: number) {}
}

/**
 * Claims sending the call's dial now, the first time or again: true for the one sender that
 * claimed it; false once it was confirmed, the call moved on, or another send younger than
 * `resendAfterMs` may still be on the wire.
 */
export class ClaimDialSend {
  constructor(
    readonly callId: number,
    readonly resendAfterMs: number,
  ) {}
}

@CommandHandler(ConfirmDialSent)
export class ConfirmDialSentHandler implements ICommandHandler<ConfirmDialSent, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId }: ConfirmDialSent): Promise<void> {
    // The provider's first reports may be writing to the call at the same moment.
    await this.runner.run(callStream(callId), callDecider, { type: 'ConfirmDialSent', id: callId }, { retries: 20 });
  }
}

@CommandHandler(ClaimDialSend)
export class ClaimDialSendHandler implements ICommandHandler<ClaimDialSend, boolean> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId, resendAfterMs }: ClaimDialSend): Promise<boolean> {
    return !!(await this.runner.tryRun(callStream(callId), callDecider, { type: 'ClaimDialSend', id: callId, resendAfterMs }));
  }
}
