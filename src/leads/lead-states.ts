import { Injectable } from '@nestjs/common';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { LeadState, leadDecider } from './lead.decider';
import { leadStream } from './lead.events';

/** Leads as their own streams have them now, read model lag aside: what a dial about to leave is checked against. */
@Injectable()
export class LeadStates {
  constructor(private readonly runner: CommandRunner) {}

  async current(id: number): Promise<LeadState> {
    return (await this.runner.current(leadStream(id), leadDecider)).state;
  }
}
