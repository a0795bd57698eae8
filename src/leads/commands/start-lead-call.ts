import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ConcurrencyError } from '../../infrastructure/event-store/event-store.errors';
import { DomainError } from '../../shared/domain-error';
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
    try {
      const { position } = await this.runner.run(leadStream(leadId), leadDecider, { type: 'StartLeadCall', id: leadId, callId }, { retries: 0 });
      return { claimed: true, position };
    } catch (error) {
      if (error instanceof ConcurrencyError || (error instanceof DomainError && error.kind === 'conflict')) return { claimed: false, position: null };
      throw error;
    }
  }
}
