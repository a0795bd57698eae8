import { Inject, Injectable, forwardRef } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantSettings } from '../assistants/assistant.settings';
import { AssistantsQueries } from '../assistants/assistants.queries';
import { isTerminal } from '../calls/call-status';
import { CallEvent } from '../calls/call.events';
import { CallDocument, callView } from '../calls/calls.projection';
import { CallsQueries } from '../calls/calls.queries';
import { CampaignEvent } from '../campaigns/campaign.events';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { ReactsToEvents, Reactor } from '../infrastructure/reactors/reactor';
import { LeadEvent } from '../leads/lead.events';
import { leadView } from '../leads/leads.projection';
import { LeadsQueries } from '../leads/leads.queries';
import { RequestWebhook } from './commands/request-webhook';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookKind, deliveryId, lifecycleDeliveryId } from './webhook.events';

type Watched = CallEvent | LeadEvent | CampaignEvent;

/** The notification a lead's or a campaign's event owes, if any (docs/api.md). */
function lifecycleKind(event: Watched): WebhookKind | null {
  switch (event.type) {
    case 'LeadReached':
    case 'LeadStopped':
      return 'lead.completed';
    case 'LeadReachedMaxRetries':
      return 'lead.reached-max-retries';
    case 'LeadStatusChanged':
      return event.data.to === 'completed' ? 'lead.completed' : event.data.to === 'reached-max-retries' ? 'lead.reached-max-retries' : null;
    case 'CampaignCompleted':
      return 'campaign.completed';
    case 'CampaignStopped':
      return 'campaign.stopped';
    default:
      return null;
  }
}

/**
 * docs/api.md and docs/api.md: a call reaching a terminal status owes its assistant's
 * `webhook_url` a `call.ended` notification (when the webhook is active, and only for
 * `completed` calls if so configured); an inbound call starting owes `inbound_webhook_url` a
 * `call.started` one; a lead or a campaign reaching an end owes the campaign's assistant's
 * `webhook_url` one of its own.
 */
@ReactsToEvents()
@Injectable()
export class WebhookTriggersReactor implements Reactor {
  readonly name = 'webhook-triggers';
  readonly eventTypes: readonly Watched['type'][] = [
    'CallOutcomeRecorded',
    'CallAnalyzed',
    'CallAnalysisTimedOut',
    'CallInitiated',
    'LeadReached',
    'LeadReachedMaxRetries',
    'LeadStatusChanged',
    'LeadStopped',
    'CampaignCompleted',
    'CampaignStopped',
  ];

  constructor(
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly leads: LeadsQueries,
    private readonly campaigns: CampaignsQueries,
    @Inject(forwardRef(() => WebhookDispatcher)) private readonly dispatcher: WebhookDispatcher,
  ) {}

  handles(recorded: RecordedEvent): boolean {
    const event = recorded as unknown as Watched;
    // A call whose runtime analyses it after its end: its webhook leaves with the analysis, or once it is given up on.
    if (event.type === 'CallOutcomeRecorded') return isTerminal(event.data.status) && !event.data.analysis_follows;
    if (event.type === 'CallAnalyzed') return event.data.awaited === true;
    if (event.type === 'CallAnalysisTimedOut') return true;
    if (event.type === 'CallInitiated') return event.data.type === 'inbound';
    return lifecycleKind(event) !== null;
  }

  async react(recorded: RecordedEvent): Promise<void> {
    const event = recorded as unknown as Watched;
    if (event.type === 'CallOutcomeRecorded' || event.type === 'CallInitiated' || event.type === 'CallAnalyzed' || event.type === 'CallAnalysisTimedOut') {
      await this.forCall(event);
    } else await this.forLifecycle(event as LeadEvent | CampaignEvent, recorded.position);
    this.dispatcher.nudge();
  }

  private async forCall(event: CallEvent): Promise<void> {
    const call = await this.calls.get(event.data.call_id);
    const assistant = call && (await this.assistants.get(call.assistant_id));
    if (!call || !assistant) return;
    const s = assistant.settings;
    if (event.type === 'CallInitiated') {
      if (s.inbound_webhook_url) await this.requestForCall(call, 'call.started', s.inbound_webhook_url, s.include_recording_in_webhook);
      return;
    }
    if (!s.is_webhook_active || !s.webhook_url) return;
    if (s.send_webhook_only_on_completed && call.status !== 'completed') return;
    await this.requestForCall(call, 'call.ended', s.webhook_url, s.include_recording_in_webhook);
  }

  private async requestForCall(call: CallDocument, kind: 'call.ended' | 'call.started', url: string, includeRecording: boolean) {
    const { recording_url, webhook_response: _response, ...shown } = callView(call);
    const campaign = call.campaign_id === null ? null : await this.campaigns.get(call.campaign_id);
    const lead = call.lead_id === null ? null : await this.leads.get(call.lead_id);
    const payload = {
      event: kind,
      call: { ...shown, ...(includeRecording && recording_url ? { recording_url } : {}) },
      lead: lead && leadView(lead, campaign),
      campaign: campaign && { id: campaign.id, name: campaign.name },
    };
    await this.commands.execute(
      new RequestWebhook(deliveryId(call.id, kind), call.id, call.user_id, call.campaign_id, kind, url, payload, call.client_phone_number),
    );
  }

  private async forLifecycle(event: LeadEvent | CampaignEvent, position: number): Promise<void> {
    const kind = lifecycleKind(event)!;
    const campaign = await this.campaigns.get(event.data.campaign_id);
    const settings: AssistantSettings | undefined = campaign ? (await this.assistants.get(campaign.assistant_id))?.settings : undefined;
    if (!campaign || !settings?.is_webhook_active || !settings.webhook_url) return;
    const shown = { id: campaign.id, name: campaign.name, status: campaign.status };
    let payload: Record<string, unknown>;
    let about: string | null = null;
    if ('lead_id' in event.data) {
      const lead = await this.leads.get(event.data.lead_id);
      if (!lead) return;
      payload = { event: kind, lead: leadView(lead, campaign), campaign: shown };
      about = lead.phone_number;
    } else {
      const stoppedReason = event.type === 'CampaignStopped' ? (event.data.reason ?? 'user') : undefined;
      payload = { event: kind, campaign: shown, ...(stoppedReason ? { stopped_reason: stoppedReason } : {}) };
    }
    const id = lifecycleDeliveryId(kind, position);
    await this.commands.execute(new RequestWebhook(id, null, campaign.user_id, campaign.id, kind, settings.webhook_url, payload, about));
  }
}
