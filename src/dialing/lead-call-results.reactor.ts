import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { isTerminal } from '../calls/call-status';
import { CallOutcomeRecorded } from '../calls/call.events';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { ReactsToEvents, Reactor } from '../infrastructure/reactors/reactor';
import { showOnCampaign } from './campaign-failures';
import { FailureBreaker } from './call-end/failure-breaker';
import { LeadRoundResult } from './call-end/lead-round-result';
import { DialScheduler } from './dial-scheduler';

/**
 * When a lead's call ends, in this order: its lead decides what follows, its campaign's failure
 * breaker judges, and the scheduler looks again at once (its places are given back at the next
 * take, see CallSlots). One checkpoint for the whole, so the order holds after a crash.
 */
@ReactsToEvents()
@Injectable()
export class LeadCallResultsReactor implements Reactor {
  readonly name = 'lead-call-results';
  readonly eventTypes: readonly CallOutcomeRecorded['type'][] = ['CallOutcomeRecorded'];

  constructor(
    private readonly commands: CommandBus,
    private readonly rounds: LeadRoundResult,
    private readonly breaker: FailureBreaker,
    private readonly scheduler: DialScheduler,
  ) {}

  handles(event: RecordedEvent): boolean {
    return event.data.lead_id !== null && isTerminal(event.data.status);
  }

  async react(event: RecordedEvent): Promise<void> {
    const { data } = event as unknown as CallOutcomeRecorded;
    const campaignId = await this.rounds.onCallEnded(data);
    if (campaignId === null) return;
    await this.breaker.judge(campaignId);
    this.scheduler.nudge();
  }

  onParked(event: RecordedEvent, error: string, retryAt: Date): Promise<void> {
    return showOnCampaign(this.commands, event, error, retryAt);
  }
}
