import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { RetryPolicy, RoundOutcome, leadDecider } from '../lead.decider';
import { LeadEvent, leadStream } from '../lead.events';
import { LeadNotDialed } from '../lead.state';

export class FinishLeadCall {
  constructor(
    readonly leadId: number,
    readonly callId: number,
    readonly callStatus: string,
    readonly reached: boolean,
    readonly policy: RetryPolicy,
    /** The called party opted out on the call's last status (docs/dialing.md). */
    readonly optOut = false,
    readonly outcome: RoundOutcome | null = null,
    /** Set when the call was never dialed, its number listed after the claim: the lead's numbers on the do-not-call list. */
    readonly doNotCall: readonly string[] | null = null,
    /** Set when the call was never dialed for another reason (see LeadCommand's FinishLeadCall). */
    readonly notDialed: LeadNotDialed | null = null,
  ) {}
}

/** Applies a call's final status to its lead: completed, next contact, next round or reached-max-retries. */
@CommandHandler(FinishLeadCall)
export class FinishLeadCallHandler implements ICommandHandler<FinishLeadCall, { events: LeadEvent[]; position: number | null }> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ leadId, callId, callStatus, reached, policy, optOut, outcome, doNotCall, notDialed }: FinishLeadCall) {
    const { events, position } = await this.runner.run(
      leadStream(leadId),
      leadDecider,
      { type: 'FinishLeadCall', id: leadId, callId, callStatus, reached, policy, optOut, outcome, doNotCall, notDialed },
      { retries: 10 },
    );
    return { events, position };
  }
}
