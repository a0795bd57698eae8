import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { isTerminal } from '../calls/call-status';
import { CallOutcomeRecorded } from '../calls/call.events';
import { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { ReactsToEvents, Reactor } from '../infrastructure/reactors/reactor';
import { showOnCampaign } from './campaign-failures';
import { FinishLeadCall } from '../leads/commands/finish-lead-call';
import { LeadsQueries } from '../leads/leads.queries';
import { DialScheduler } from './dial-scheduler';
import { DialingPolicies } from './dialing-policies';
import { CallsQueries } from '../calls/calls.queries';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { TripFailureBreaker } from '../campaigns/commands/trip-failure-breaker';
import { breakerTrips } from './campaign-limits';
import { RoundOutcome } from '../leads/lead.decider';
import { LeadNotDialed } from '../leads/lead.state';
import { CallSlots } from './call-slots';
import { AppConfig } from '../infrastructure/config/app-config';
import { runtimeCap } from '../infrastructure/config/voice-runtime-config';

/** How an unanswered call went, as a campaign's retry_policy names it (docs/dialing.md). */
export function roundOutcome(status: string, answeredBy: string | null | undefined): RoundOutcome | null {
  if (status === 'busy' || status === 'no-answer' || status === 'failed') return status;
  return answeredBy === 'machine' ? 'machine' : null;
}

/** What a call never dialed means to its lead's rounds (do-not-call aside, which passes over the contact). */
function leadNotDialed(data: CallOutcomeRecorded['data']): LeadNotDialed | null {
  if (!data.not_dialed || data.not_dialed === 'do-not-call') return null;
  if (data.not_dialed === 'outside-window') return 'outside-window';
  if (data.not_dialed === 'runtime-at-capacity' && data.retry_at) return { retryAt: data.retry_at };
  return 'held';
}

/** When a lead's call ends, the lead decides what follows, and the scheduler looks again at once. */
@ReactsToEvents()
@Injectable()
export class LeadCallResultsReactor implements Reactor {
  readonly name = 'lead-call-results';
  readonly eventTypes: readonly CallOutcomeRecorded['type'][] = ['CallOutcomeRecorded'];

  constructor(
    private readonly commands: CommandBus,
    private readonly leads: LeadsQueries,
    private readonly policies: DialingPolicies,
    private readonly scheduler: DialScheduler,
    private readonly calls: CallsQueries,
    private readonly campaigns: CampaignsQueries,
    private readonly slots: CallSlots,
    private readonly config: AppConfig,
  ) {}

  handles(event: RecordedEvent): boolean {
    return event.data.lead_id !== null && isTerminal(event.data.status);
  }

  async react(event: RecordedEvent): Promise<void> {
    const { data } = event as unknown as CallOutcomeRecorded;
    // The call's place among its campaign's calls in flight is freed before its lead may be claimed again.
    if (data.campaign_id !== null) await this.slots.free(data.campaign_id, [data.call_id]);
    const cap = runtimeCap(this.config.runtimes);
    if (cap) await this.slots.freeOnRuntime(cap.provider, [data.call_id]);
    const lead = await this.leads.get(data.lead_id!);
    const policy = lead && (await this.policies.retryPolicy(lead.campaign_id));
    if (!lead || !policy) return;
    const call = await this.calls.get(data.call_id);
    const outcome = roundOutcome(data.status, call?.answered_by ?? data.details?.answered_by);
    // Never dialed: the lead passes over the contact as its claim would have, knowing which of its numbers are listed.
    const listed = data.not_dialed === 'do-not-call' ? await this.policies.listedNumbersOf(lead) : null;
    const notDialed = leadNotDialed(data);
    await this.commands.execute(
      new FinishLeadCall(lead.id, data.call_id, data.status, data.reached, policy, data.details?.opt_out === true, outcome, listed, notDialed),
    );
    await this.judgeFailures(lead.campaign_id);
    this.scheduler.nudge();
  }
  /** docs/dialing.md: a campaign whose last finished calls failed beyond its breaker's share stops. */
  private async judgeFailures(campaignId: number): Promise<void> {
    const campaign = await this.campaigns.get(campaignId);
    const breaker = campaign?.failure_breaker;
    if (!campaign || !breaker || campaign.status !== 'in-progress') return;
    // Calls still in flight are among the latest too: at most the campaign's concurrency.
    const latest = await this.calls.latestOfCampaign(campaign.user_id, campaign.id, breaker.window + campaign.max_concurrent_calls);
    const failed = breakerTrips(breaker, latest, Date.parse(campaign.started_at ?? campaign.created_at));
    if (failed !== null) await this.commands.execute(new TripFailureBreaker(campaign.id, failed, breaker.window));
  }

  onParked(event: RecordedEvent, error: string, retryAt: Date): Promise<void> {
    return showOnCampaign(this.commands, event, error, retryAt);
  }
}
