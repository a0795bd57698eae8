import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { RetryPolicy, leadDecider } from '../lead.decider';
import { leadStream } from '../lead.events';

export class StartLeadCall {
  constructor(
    readonly leadId: number,
    readonly callId: number,
    readonly policy: RetryPolicy,
    /** The lead's numbers on its user's do-not-call list. */
    readonly doNotCall: readonly string[],
  ) {}
}

/**
 * Claims a lead for one call: an append with the expected revision, never retried, so of
 * two schedulers (or processes) reaching for the same lead exactly one wins. The decision may
 * instead pass over listed numbers, move the lead's turn to its next window, or end it
 * (docs/dialing.md): those are appended too, and are no claim.
 */
@CommandHandler(StartLeadCall)
export class StartLeadCallHandler implements ICommandHandler<StartLeadCall, { claimed: boolean; position: number | null }> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ leadId, callId, policy, doNotCall }: StartLeadCall) {
    const result = await this.runner.tryRun(leadStream(leadId), leadDecider, { type: 'StartLeadCall', id: leadId, callId, policy, doNotCall });
    const claimed = result?.events.some((e) => e.type === 'LeadCallStarted') ?? false;
    return { claimed, position: result?.position ?? null };
  }
}
