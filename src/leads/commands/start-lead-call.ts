import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { leadDecider } from '../lead.decider';
import { leadStream } from '../lead.events';

export class StartLeadCall {
  constructor(
    readonly leadId: number,
    readonly callId: number,
  ) {}
}

/**
 * Claims a lead for one call: an append with the expected revision, never retried, so of
 * two schedulers (or processes) reaching for the same lead exactly one wins.
 */
@CommandHandler(StartLeadCall)
export class StartLeadCallHandler implements ICommandHandler<StartLeadCall, { claimed: boolean; position: number | null }> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ leadId, callId }: StartLeadCall) {
    const result = await this.runner.tryRun(leadStream(leadId), leadDecider, { type: 'StartLeadCall', id: leadId, callId });
    return { claimed: result !== null, position: result?.position ?? null };
  }
}
