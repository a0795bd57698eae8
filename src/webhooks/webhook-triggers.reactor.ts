import { Inject, Injectable, forwardRef } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantsQueries } from '../assistants/assistants.queries';
import { isTerminal } from '../calls/call-status';
import { CallEvent } from '../calls/call.events';
import { CallDocument, callView } from '../calls/calls.projection';
import { CallsQueries } from '../calls/calls.queries';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { ReactsToEvents, Reactor } from '../infrastructure/reactors/reactor';
import { leadView } from '../leads/leads.projection';
import { LeadsQueries } from '../leads/leads.queries';
import { RequestWebhook } from './commands/request-webhook';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * interface.md §6 and contract §10: a call reaching a terminal status owes its assistant's
 * `webhook_url` a `call.ended` notification (when the webhook is active, and only for
 * `completed` calls if so configured); an inbound call starting owes `inbound_webhook_url`
 * a `call.started` one.
 */
@ReactsToEvents()
@Injectable()
export class WebhookTriggersReactor implements Reactor {
  readonly name = 'webhook-triggers';
  readonly eventTypes: readonly CallEvent['type'][] = ['CallOutcomeRecorded', 'CallInitiated'];

  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
    private readonly calls: CallsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly leads: LeadsQueries,
    private readonly campaigns: CampaignsQueries,
    @Inject(forwardRef(() => WebhookDispatcher)) private readonly dispatcher: WebhookDispatcher,
  ) {}

  handles(event: RecordedEvent): boolean {
    return event.type === 'CallOutcomeRecorded' ? isTerminal(event.data.status) : event.data.type === 'inbound';
  }

  async react(recorded: RecordedEvent): Promise<void> {
    const event = recorded as unknown as CallEvent;
    await this.projections.settle(recorded.position);
    const call = await this.calls.get(event.data.call_id);
    const assistant = call && (await this.assistants.get(call.assistant_id));
    if (!call || !assistant) return;
    const s = assistant.settings;
    if (event.type === 'CallInitiated') {
      if (!s.inbound_webhook_url) return;
      await this.request(call, 'call.started', s.inbound_webhook_url, s.include_recording_in_webhook);
    } else {
      if (!s.is_webhook_active || !s.webhook_url) return;
      if (s.send_webhook_only_on_completed && call.status !== 'completed') return;
      await this.request(call, 'call.ended', s.webhook_url, s.include_recording_in_webhook);
    }
    this.dispatcher.nudge();
  }

  private async request(call: CallDocument, kind: 'call.ended' | 'call.started', url: string, includeRecording: boolean) {
    const { recording_url, webhook_response: _response, ...shown } = callView(call);
    const campaign = call.campaign_id === null ? null : await this.campaigns.get(call.campaign_id);
    const lead = call.lead_id === null ? null : await this.leads.get(call.lead_id);
    const payload = {
      event: kind,
      call: { ...shown, ...(includeRecording && recording_url ? { recording_url } : {}) },
      lead: lead && leadView(lead, campaign),
      campaign: campaign && { id: campaign.id, name: campaign.name },
    };
    await this.commands.execute(new RequestWebhook(call.id, call.user_id, call.campaign_id, kind, url, payload));
  }
}
