import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantView } from '../assistants/assistant-view';
import { AssistantsQueries } from '../assistants/assistants.queries';
import { CallSpec } from '../calls/call.events';
import { ClaimDialSend, ConfirmDialSent } from '../calls/commands/call-dial';
import { RecordCallOutcome } from '../calls/commands/record-call-outcome';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { AppConfig } from '../infrastructure/config/app-config';
import { Metrics } from '../infrastructure/metrics/metrics';
import { DoNotCallQueries } from '../do-not-call/do-not-call.queries';
import { LeadStates } from '../leads/lead-states';
import { Clock } from '../shared/clock';
import { dialRefusal, NOT_DIALED_REASONS } from './dial-check';
import { DialRequest, Dialer } from './dialer.port';
import { DIAL_TIMEOUT_MS } from './http-dialer';
import { DialingPolicies } from './dialing-policies';

/**
 * Sends a call's dial request to the dialer, the first time or again under the same call id.
 * Just before it leaves, every rule the claim judged is judged again (contract §9): refused,
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
    private readonly metrics: Metrics,
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
    const resendAfterMs = this.config.dialing.resendAfterSeconds * 1000;
    const claimedAt = performance.now();
    if (!(await this.commands.execute<ClaimDialSend, boolean>(new ClaimDialSend(callId, resendAfterMs)))) return;
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
    // A process stalled since its claim past DIAL_RESEND_AFTER_SECONDS less the dial's own timeout may be taken
    // for dead and its dial sent by another: better this attempt lost than the call doubled.
    if (performance.now() - claimedAt > resendAfterMs - DIAL_TIMEOUT_MS) return;
    try {
      await this.dialer.dial(request);
      this.metrics.callPlaced('accepted');
    } catch (error) {
      this.metrics.callPlaced('refused');
      await this.commands.execute(new RecordCallOutcome(callId, 'failed', {}, { reason: `dial refused: ${(error as Error).message}` }));
      return;
    }
    // Unrecorded, the dial is sent again later under the same id, which providers deduplicate on.
    await this.commands
      .execute(new ConfirmDialSent(callId))
      .catch((error: Error) => this.logger.warn(`call ${callId}: its dial could not be confirmed: ${error.message}`));
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
