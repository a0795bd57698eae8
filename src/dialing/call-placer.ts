import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantView } from '../assistants/assistant-view';
import { AssistantsQueries } from '../assistants/assistants.queries';
import { CallSpec } from '../calls/call.events';
import { ClaimDialSend, ConfirmDialSent, DialClaim } from '../calls/commands/call-dial';
import { RecordCallOutcome } from '../calls/commands/record-call-outcome';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { AppConfig } from '../infrastructure/config/app-config';
import { DialingSettings } from './dialing-settings';
import { DialingMetrics } from './dialing.metrics';
import { DoNotCallQueries } from '../do-not-call/do-not-call.queries';
import { LeadStates } from '../leads/lead-states';
import { Clock } from '../shared/clock';
import { dialRefusal, NOT_DIALED_REASONS } from './dial-check';
import { DialAccepted, DialRefused, DialUnanswered, DialRequest, Dialer } from '../voice-runtimes/dialer.port';
import { DIAL_TIMEOUT_MS } from '../voice-runtimes/dialer.port';
import { DialingPolicies } from './dialing-policies';

/** docs/real-calls.md: the runtime could not be asked about a dial that may have left. */
export const DIAL_OUTCOME_UNKNOWN = 'dial outcome unknown';

/** A lookup starts this much before the first send: the runtime's clock may run behind ours. */
const LOOKUP_SLACK_MS = 60_000;

/**
 * Sends a call's dial request to the dialer, the first time or again under the same call id.
 * Just before it leaves, every rule the claim judged is judged again (docs/dialing.md): refused,
 * the call ends `failed` with why, never dialed. Each send is claimed on the call's stream, so
 * one sender at a time; accepted, the call records that its dial was sent; refused by the
 * dialer, the call is `failed`.
 */
@Injectable()
export class CallPlacer {
  private readonly logger = new Logger('CallPlacer');

  constructor(
    private readonly commands: CommandBus,
    private readonly assistants: AssistantsQueries,
    private readonly assistantView: AssistantView,
    private readonly dialer: Dialer,
    private readonly config: AppConfig,
    private readonly settings: DialingSettings,
    private readonly metrics: DialingMetrics,
    private readonly doNotCall: DoNotCallQueries,
    private readonly campaigns: CampaignsQueries,
    private readonly leads: LeadStates,
    private readonly policies: DialingPolicies,
    private readonly clock: Clock,
  ) {}

  async place(callId: number, spec: CallSpec): Promise<void> {
    const refusal = await this.refusal(callId, spec);
    if (refusal) {
      this.metrics.callPlaced('refused');
      this.metrics.dialDecision(`not_dialed_${refusal.replace(/-/g, '_')}`);
      await this.commands.execute(new RecordCallOutcome(callId, 'failed', {}, { reason: NOT_DIALED_REASONS[refusal], notDialed: refusal }));
      return;
    }
    const assistant = await this.assistants.get(spec.assistant_id);
    if (!assistant) {
      await this.commands.execute(new RecordCallOutcome(callId, 'failed', {}, { reason: 'dial refused: the assistant is gone' }));
      return;
    }
    const resendAfterMs = this.settings.resendAfterSeconds * 1000;
    const claimedAt = performance.now();
    const claim = await this.commands.execute<ClaimDialSend, DialClaim | null>(new ClaimDialSend(callId, resendAfterMs));
    if (!claim) return;
    const request: DialRequest = {
      call_id: callId,
      from: spec.assistant_phone_number,
      to: spec.client_phone_number,
      assistant_id: assistant.id,
      assistant: (await this.assistantView.render([assistant]))[0],
      campaign_id: spec.campaign_id,
      lead_id: spec.lead_id,
      secondary_contact_id: spec.secondary_contact_id,
      variables: spec.variables,
      callback_url: `${this.config.publicUrl.replace(/\/$/, '')}/api/telephony/calls/${callId}/events`,
    };
    // A send again (the first was never confirmed): a runtime that does not deduplicate on our id
    // is asked first for the call it may have placed (docs/real-calls.md).
    if (claim.sends > 1 && !(await this.mayResend(callId, request, claim))) return;
    // A process stalled since its claim past DIAL_RESEND_AFTER_SECONDS less the dial's own timeout may be taken
    // for dead and its dial sent by another: better this attempt lost than the call doubled.
    if (performance.now() - claimedAt > resendAfterMs - DIAL_TIMEOUT_MS) return;
    let accepted: DialAccepted;
    try {
      accepted = await this.dialer.dial(request);
      this.metrics.callPlaced('accepted');
    } catch (error) {
      // No answer in time: the runtime may have placed the call. It stays unconfirmed; the resend
      // sweep looks it up before anything is sent again (docs/real-calls.md).
      if (error instanceof DialUnanswered) {
        this.logger.warn(`call ${callId}: ${error.message}; it is looked up before any resend`);
        return;
      }
      this.metrics.callPlaced('refused');
      await this.refused(callId, error as Error);
      return;
    }
    await this.confirm(callId, accepted.providerCallId);
  }

  /** Unrecorded, the dial is sent again later under the same id, after a lookup at the runtime. */
  private confirm(callId: number, providerCallId: string | null): Promise<void> {
    return this.commands
      .execute(new ConfirmDialSent(callId, providerCallId))
      .catch((error: Error) => this.logger.warn(`call ${callId}: its dial could not be confirmed: ${error.message}`));
  }

  /** A refusal for the runtime's capacity uses no attempt: its lead is due again after the wait it named. */
  private async refused(callId: number, error: Error): Promise<void> {
    const reason = `dial refused: ${error.message}`;
    if (error instanceof DialRefused && error.retryAfterMs !== null) {
      const retryAt = new Date(this.clock.now().getTime() + error.retryAfterMs).toISOString();
      this.metrics.dialDecision('not_dialed_runtime_at_capacity');
      await this.commands.execute(new RecordCallOutcome(callId, 'failed', {}, { reason, notDialed: 'runtime-at-capacity', retryAt }));
      return;
    }
    await this.commands.execute(new RecordCallOutcome(callId, 'failed', {}, { reason }));
  }

  /**
   * Whether an unconfirmed dial may leave again: the runtime shows no call placed for it. One it
   * shows is adopted; a runtime that cannot be asked ends the call, its attempt counted, rather
   * than risk a second call to the person.
   */
  private async mayResend(callId: number, request: DialRequest, claim: DialClaim): Promise<boolean> {
    const found = await this.dialer.lookup(request, new Date(Date.parse(claim.firstSendAt) - LOOKUP_SLACK_MS)).catch(() => 'unknown' as const);
    if (found === 'none') return true;
    if (found === 'unknown') await this.commands.execute(new RecordCallOutcome(callId, 'failed', {}, { reason: DIAL_OUTCOME_UNKNOWN }));
    else await this.confirm(callId, found.found);
    return false;
  }

  /** Why the call may not be dialed now (a call outside any campaign is held to no campaign's rules). */
  private async refusal(callId: number, spec: CallSpec) {
    if (spec.campaign_id === null || spec.lead_id === null) return null;
    const [listed, campaign, lead] = await Promise.all([
      this.doNotCall.listed(spec.user_id, [spec.client_phone_number]),
      this.campaigns.get(spec.campaign_id),
      this.leads.current(spec.lead_id),
    ]);
    // A campaign whose stored rules cannot be read is not dialed (the scheduler shows why on it).
    const policy = campaign && (await this.policies.policyOf(campaign).catch(() => null));
    const facts = {
      callId,
      campaignId: spec.campaign_id,
      campaignStatus: campaign?.status ?? null,
      policy,
      lead,
      number: spec.client_phone_number,
      numberListed: listed.length > 0,
    };
    return dialRefusal(facts, this.clock.now());
  }
}
