import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { callDecider } from '../call.decider';
import { callStream } from '../call.events';

/** The dialer accepted the call's dial request; `providerCallId`: the runtime's own id of it. */
export class ConfirmDialSent {
  constructor(
    readonly callId: number,
    readonly providerCallId: string | null = null,
  ) {}
}

/** A send claimed: how many sends so far (this one included), and when the first was. */
export interface DialClaim {
  sends: number;
  firstSendAt: string;
}

/**
 * Claims sending the call's dial now, the first time or again: the claim for the one sender that
 * claimed it; null once it was confirmed, the call moved on, or another send younger than
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

  async execute({ callId, providerCallId }: ConfirmDialSent): Promise<void> {
    // The provider's first reports may be writing to the call at the same moment.
    await this.runner.run(callStream(callId), callDecider, { type: 'ConfirmDialSent', id: callId, providerCallId }, { retries: 20 });
  }
}

@CommandHandler(ClaimDialSend)
export class ClaimDialSendHandler implements ICommandHandler<ClaimDialSend, DialClaim | null> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId, resendAfterMs }: ClaimDialSend): Promise<DialClaim | null> {
    const claimed = await this.runner.tryRun(callStream(callId), callDecider, { type: 'ClaimDialSend', id: callId, resendAfterMs });
    const state = claimed?.state;
    return state?.exists && state.firstSendAt ? { sends: state.sends, firstSendAt: state.firstSendAt } : null;
  }
}
