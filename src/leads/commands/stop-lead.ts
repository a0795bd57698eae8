import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { leadDecider } from '../lead.decider';
import { LeadStopReason, leadStream } from '../lead.events';

export class StopLead {
  constructor(
    readonly leadId: number,
    readonly reason: LeadStopReason,
  ) {}
}

/** Ends a lead still to be dialed, `completed` with its reason (docs/dialing.md); an ended lead stays as it is. */
@CommandHandler(StopLead)
export class StopLeadHandler implements ICommandHandler<StopLead, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ leadId, reason }: StopLead): Promise<void> {
    await this.runner.run(leadStream(leadId), leadDecider, { type: 'StopLead', id: leadId, reason });
  }
}
