import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantView } from '../assistants/assistant-view';
import { AssistantsProjection } from '../assistants/assistants.projection';
import { CallSpec } from '../calls/call.events';
import { InitiateCall } from '../calls/commands/initiate-call';
import { RecordCallOutcome } from '../calls/commands/record-call-outcome';
import { CampaignsProjection } from '../campaigns/campaigns.projection';
import { AppConfig } from '../infrastructure/config/app-config';
import { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { ReactsToEvents, Reactor } from '../infrastructure/reactors/reactor';
import { LeadCallStarted } from '../leads/lead.events';
import { LeadsProjection } from '../leads/leads.projection';
import { PhoneNumbersProjection } from '../phone-numbers/phone-numbers.projection';
import { DialRequest, Dialer } from './dialer.port';

/**
 * A claimed lead gets its call: the call's stream is opened (only once, whoever reacts)
 * and the dialer asked to place it. A refused dial is recorded `failed`. After a crash
 * between the two, the call stays `initiated` until the stuck-call sweep fails it, and the
 * lead's round goes on from there: nothing is dialed twice and nothing is lost.
 */
@ReactsToEvents()
@Injectable()
export class PlaceCallsReactor implements Reactor {
  readonly name = 'place-calls';
  readonly eventTypes: readonly LeadCallStarted['type'][] = ['LeadCallStarted'];

  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
    private readonly leads: LeadsProjection,
    private readonly campaigns: CampaignsProjection,
    private readonly assistants: AssistantsProjection,
    private readonly assistantView: AssistantView,
    private readonly phoneNumbers: PhoneNumbersProjection,
    private readonly dialer: Dialer,
    private readonly config: AppConfig,
  ) {}

  async react(event: RecordedEvent): Promise<void> {
    const { data } = event as unknown as LeadCallStarted;
    await this.projections.settle(event.position);
    const [lead, campaign] = await Promise.all([this.leads.leads.get(data.lead_id), this.campaigns.campaigns.get(data.campaign_id)]);
    const assistant = campaign && (await this.assistants.assistants.get(campaign.assistant_id));
    if (!lead || !campaign || !assistant) return;
    const number = assistant.settings.phone_number_id === null ? null : await this.phoneNumbers.numbers.get(assistant.settings.phone_number_id);
    const contact = lead.secondary_contacts.find((c) => c.id === data.secondary_contact_id);
    const spec: CallSpec = {
      user_id: lead.user_id,
      assistant_id: assistant.id,
      assistant_name: assistant.settings.assistant_name,
      campaign_id: campaign.id,
      campaign_name: campaign.name,
      lead_id: lead.id,
      secondary_contact_id: data.secondary_contact_id,
      type: 'outbound',
      assistant_phone_number: number?.phone_number ?? null,
      client_phone_number: data.phone_number,
      variables: { ...lead.variables, ...contact?.variables },
      record: assistant.settings.record_call,
      max_duration_seconds: assistant.settings.max_call_duration,
    };
    const { created } = await this.commands.execute(new InitiateCall(data.call_id, spec));
    if (!created) return;
    const request: DialRequest = {
      call_id: data.call_id,
      from: spec.assistant_phone_number,
      to: spec.client_phone_number,
      assistant_id: assistant.id,
      assistant: (await this.assistantView.render([assistant]))[0],
      campaign_id: campaign.id,
      lead_id: lead.id,
      secondary_contact_id: spec.secondary_contact_id,
      variables: spec.variables,
      callback_url: `${this.config.publicUrl.replace(/\/$/, '')}/api/telephony/calls/${data.call_id}/events`,
    };
    try {
      await this.dialer.dial(request);
    } catch (error) {
      await this.commands.execute(new RecordCallOutcome(data.call_id, 'failed', {}, { reason: `dial refused: ${(error as Error).message}` }));
    }
  }
}
