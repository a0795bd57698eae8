import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { outcomeFields } from '../assistants/assistant.settings';
import { AssistantsQueries } from '../assistants/assistants.queries';
import { CallSpec } from '../calls/call.events';
import { InitiateCall } from '../calls/commands/initiate-call';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { ReactsToEvents, Reactor } from '../infrastructure/reactors/reactor';
import { showOnCampaign } from './campaign-failures';
import { LeadCallStarted } from '../leads/lead.events';
import { LeadsQueries } from '../leads/leads.queries';
import { PhoneNumbersQueries } from '../phone-numbers/phone-numbers.queries';
import { DialQueue } from './dial-queue';
import { Dialer } from '../voice-runtimes/dialer.port';

/**
 * A claimed lead gets its call: the call's stream is opened (only once, whoever reacts) and
 * its dial queued to leave in parallel with every other (docs/dialing.md); the reactor goes on at
 * once, never waiting on a provider. After a crash before the dial left, the call's dial is
 * never confirmed, and the resend sweep sends it under the same id (docs/api.md): nothing is
 * dialed twice under two ids, and no attempt is lost.
 */
@ReactsToEvents()
@Injectable()
export class PlaceCallsReactor implements Reactor {
  readonly name = 'place-calls';
  readonly eventTypes: readonly LeadCallStarted['type'][] = ['LeadCallStarted'];

  constructor(
    private readonly commands: CommandBus,
    private readonly leads: LeadsQueries,
    private readonly campaigns: CampaignsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly phoneNumbers: PhoneNumbersQueries,
    private readonly dials: DialQueue,
    private readonly dialer: Dialer,
  ) {}

  async react(event: RecordedEvent): Promise<void> {
    const { data } = event as unknown as LeadCallStarted;
    const [lead, campaign] = await Promise.all([this.leads.get(data.lead_id), this.campaigns.get(data.campaign_id)]);
    const assistant = campaign && (await this.assistants.get(campaign.assistant_id));
    if (!lead || !campaign || !assistant) return;
    const number = assistant.settings.phone_number_id === null ? null : await this.phoneNumbers.get(assistant.settings.phone_number_id);
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
      provider: this.dialer.provider,
      outcome_fields: outcomeFields(assistant.settings),
    };
    const { created } = await this.commands.execute(new InitiateCall(data.call_id, spec));
    if (created) this.dials.add(data.call_id, spec);
  }
  onParked(event: RecordedEvent, error: string, retryAt: Date): Promise<void> {
    return showOnCampaign(this.commands, event, error, retryAt);
  }
}
