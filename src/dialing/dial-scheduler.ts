import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CampaignDocument } from '../campaigns/campaigns.projection';
import { CampaignTurns } from './campaign-turns';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { CompleteCampaign } from '../campaigns/commands/complete-campaign';
import { RecordDialingFailure, RecordDialingRecovery } from '../campaigns/commands/record-dialing-health';
import { Backoff } from '../shared/backoff';
import { assertDialable } from './dialable-settings';
import { RepeatingJob } from '../infrastructure/background/repeating-job';
import { LeaseHandle, WorkLeases } from '../infrastructure/leases/work-leases';
import { DialingSettings } from './dialing-settings';
import { DialingMetrics } from './dialing.metrics';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { BACKGROUND_WORK } from '../infrastructure/reactors/reactor';
import { StartLeadCall } from '../leads/commands/start-lead-call';
import { LeadsQueries } from '../leads/leads.queries';
import { Clock } from '../shared/clock';
import { isInsideCallingWindow } from '../shared/calling-window';
import { DialingPolicies } from './dialing-policies';
import { CallsQueries } from '../calls/calls.queries';
import { dialsLeftThisMinute } from './campaign-limits';
import { CallSlots } from './call-slots';
import { CallSlot } from './call-slots.decider';
import { RuntimeCapacity } from '../voice-runtimes/runtime-capacity';

/** The most of the main thread passes take back to back: the rest places and finishes the calls they claim. */
const SCHEDULER_SHARE = 0.5;
/** Campaigns dialed together within a pass. */
const CAMPAIGNS_AT_ONCE = 16;

/**
 * Decides who is dialed now (docs/dialing.md): for each `in-progress` campaign inside its
 * calling window and under its concurrency limit, the due leads, oldest due first, each
 * claimed by an append with the expected revision, after the batch took its places among the
 * campaign's calls in flight (see CallSlots). Due leads are found through the read
 * model's `(campaign_id, dial_due_at, id)` index, a page at a time, never a whole campaign.
 * Runs on an interval and whenever a call's end may have freed a slot, in one instance at a
 * time (its lease's holder), so `max_concurrent_calls` and pacing hold across instances.
 */
@Injectable()
export class DialScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: RepeatingJob;
  private lease?: LeaseHandle;
  private readonly logger = new Logger('DialScheduler');
  private readonly backoff = new Backoff();
  /** Calls this scheduler placed in the last minute, per campaign: pacing counts them before the read model does. */
  private readonly claimsByCampaign = new Map<number, Array<{ callId: number; at: number }>>();
  private stopped = false;
  private readonly turns = new CampaignTurns();
  private mayDial = () => true;

  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
    private readonly campaigns: CampaignsQueries,
    private readonly leads: LeadsQueries,
    private readonly policies: DialingPolicies,
    private readonly calls: CallsQueries,
    private readonly clock: Clock,
    private readonly settings: DialingSettings,
    private readonly metrics: DialingMetrics,
    registry: SchedulerRegistry,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
    private readonly leases: WorkLeases,
    private readonly slots: CallSlots,
    private readonly runtime: RuntimeCapacity,
  ) {
    // A pass that claimed calls may have more to claim once they are projected.
    this.job = new RepeatingJob('DialScheduler', registry, async () => (await this.pass()) > 0, SCHEDULER_SHARE);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.background) return;
    const work = this.job.leased(this.settings.intervalMs);
    this.lease = await this.leases.add(work);
    // A holder paused past its lease's end (another instance may dial by now) skips its passes.
    this.mayDial = () => this.leases.holds(work.name);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.lease?.release();
    await this.job.stop();
  }

  /** Asks for a pass soon; passes never overlap, and one asked for during a pass runs right after it. */
  nudge(): void {
    this.job.nudge();
  }

  /** One look at every running campaign; answers how many calls it started. */
  async pass(): Promise<number> {
    if (!this.mayDial()) return 0;
    const startedAt = performance.now();
    // Decide on a read model that has seen every claim made so far, however long it lags.
    await this.projections.projected(await this.events.headPosition());
    const now = this.clock.now();
    let started = 0;
    // Every campaign has its turn, those that waited longest for a claim first (CampaignTurns).
    const order = this.turns.next(await this.campaigns.inProgress());
    const inFlight = await this.leads.inFlightByCampaign();
    // A few campaigns at a time: their reads and claims share the stores' commits.
    for (let i = 0; i < order.length && !this.stopped; i += CAMPAIGNS_AT_ONCE) {
      const chunk = order.slice(i, i + CAMPAIGNS_AT_ONCE);
      const claimed = await Promise.all(chunk.map((campaign) => this.dialIsolated(campaign, now, inFlight.get(campaign.id) ?? 0)));
      chunk.forEach((campaign, j) => {
        if (claimed[j] > 0) this.turns.claimed(campaign.id);
      });
      started += claimed.reduce((sum, n) => sum + n, 0);
    }
    this.metrics.schedulerPassed((performance.now() - startedAt) / 1000);
    return started;
  }

  /** One campaign's turn: its failure is its own (docs/api.md), recorded and retried later, never the pass's. */
  private async dialIsolated(campaign: CampaignDocument, now: Date, inFlight: number): Promise<number> {
    if (!this.backoff.due(campaign.id, now)) return 0;
    try {
      const started = await this.dialCampaign(campaign, now, inFlight);
      this.backoff.succeeded(campaign.id);
      if (campaign.last_error) await this.commands.execute(new RecordDialingRecovery(campaign.id));
      return started;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryAt = this.backoff.failed(campaign.id, now);
      this.metrics.dialDecision('campaign_failed');
      this.logger.error(`campaign ${campaign.id} could not be dialed, next try at ${retryAt.toISOString()}: ${message}`);
      await this.commands
        .execute(new RecordDialingFailure(campaign.id, message, retryAt))
        .catch((e: Error) => this.logger.error(`campaign ${campaign.id}: its failure could not be recorded: ${e.message}`));
      return 0;
    }
  }

  /**
   * docs/dialing.md: with `max_calls_per_minute`, the calls still allowed in the rolling minute:
   * those the read model shows (every instance's), and this scheduler's own claims whose calls
   * it does not show yet (a claim's call is recorded a moment after it).
   */
  private async pacedAllowance(campaign: CampaignDocument, now: Date): Promise<number> {
    const perMinute = campaign.max_calls_per_minute;
    if (!perMinute) return Infinity;
    const shown = await this.calls.latestOfCampaign(campaign.user_id, campaign.id, perMinute);
    const shownIds = new Set(shown.map((c) => c.id));
    const cutoff = now.getTime() - 60_000;
    const own = (this.claimsByCampaign.get(campaign.id) ?? []).filter((c) => c.at > cutoff);
    this.claimsByCampaign.set(campaign.id, own);
    const unseen = own.filter((c) => !shownIds.has(c.callId)).length;
    return dialsLeftThisMinute(perMinute, shown, now.getTime()) - unseen;
  }

  /** `inFlight`: the campaign's calls in flight as the pass began (its own claims come after). */
  private async dialCampaign(campaign: CampaignDocument, now: Date, inFlight: number): Promise<number> {
    assertDialable(campaign);
    if (inFlight === 0) {
      const leadsToCall = await this.leads.toCall(campaign.id);
      if (leadsToCall === 0) {
        await this.commands.execute(new CompleteCampaign(campaign.id, leadsToCall, inFlight));
        return 0;
      }
    }
    // A campaign with every slot taken is passed over before its rules are read.
    if (campaign.max_concurrent_calls - inFlight <= 0) return this.atCapacity();
    // A window read in the assistant's zone closes for every lead at once; one read in each
    // lead's zone, and the quiet hours and holidays, are judged lead by lead when claimed.
    const window = await this.policies.assistantWindow(campaign);
    if (window && !isInsideCallingWindow(window, now)) {
      this.metrics.dialDecision('outside_window');
      return 0;
    }
    const policy = await this.policies.policyOf(campaign);
    if (!policy) return 0;
    const free = Math.min(campaign.max_concurrent_calls - inFlight, await this.pacedAllowance(campaign, now));
    if (free <= 0) return this.atCapacity();
    const due = await this.leads.due(campaign.id, now.getTime(), free);
    // A stop answered since the pass read the campaigns halts it before any claim.
    if (!due.length || (await this.campaigns.get(campaign.id))?.status !== 'in-progress') return 0;
    // A holder paused past its lease claims nothing once it wakes; the lease is asked again before each batch.
    if (!this.mayDial()) return 0;
    // The batch takes its places among the campaign's calls in flight first, where two schedulers
    // at once cannot both see room; then each lead is claimed by an append with its own revision.
    const wanted = await Promise.all(due.map(async (lead) => ({ call_id: await this.events.nextId('call'), lead_id: lead.id })));
    const granted = await this.placesFor(campaign.id, campaign.max_concurrent_calls, wanted);
    const leads = new Map(due.map((lead) => [lead.id, lead]));
    const claims = await Promise.all(
      granted.map(async ({ call_id: callId, lead_id }) => {
        const lead = leads.get(lead_id)!;
        const listed = await this.policies.listedNumbersOf(lead);
        const claim = await this.commands.execute<StartLeadCall, { claimed: boolean }>(new StartLeadCall(lead.id, callId, policy, listed));
        if (claim.claimed && campaign.max_calls_per_minute)
          this.claimsByCampaign.set(campaign.id, [...(this.claimsByCampaign.get(campaign.id) ?? []), { callId, at: now.getTime() }]);
        return { callId, claimed: claim.claimed };
      }),
    );
    await this.freePlaces(
      campaign.id,
      claims.filter((c) => !c.claimed).map((c) => c.callId),
    );
    const claimed = claims.filter((c) => c.claimed).length;
    this.metrics.dialDecision('lead_claimed', claimed);
    this.metrics.dialDecision('claim_lost', claims.length - claimed);
    if (granted.length < wanted.length) this.atCapacity();
    return claimed;
  }

  /**
   * Places among the campaign's calls in flight, then among the voice runtime's when it caps
   * them (docs/real-calls.md): a lead past either cap waits, no attempt used.
   */
  private async placesFor(campaignId: number, capacity: number, wanted: CallSlot[]): Promise<CallSlot[]> {
    const inCampaign = await this.slots.take(campaignId, capacity, wanted);
    const cap = this.runtime.cap;
    if (!cap || !inCampaign.length) return inCampaign;
    const onRuntime = await this.slots.takeOnRuntime(cap.provider, cap.capacity, inCampaign);
    const placed = new Set(onRuntime.map((s) => s.call_id));
    await this.slots.free(
      campaignId,
      inCampaign.filter((s) => !placed.has(s.call_id)).map((s) => s.call_id),
    );
    return onRuntime;
  }

  private async freePlaces(campaignId: number, callIds: number[]): Promise<void> {
    await this.slots.free(campaignId, callIds);
    const cap = this.runtime.cap;
    if (cap) await this.slots.freeOnRuntime(cap.provider, callIds);
  }

  private atCapacity(): number {
    this.metrics.dialDecision('at_capacity');
    return 0;
  }
}
