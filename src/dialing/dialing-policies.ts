import { Injectable } from '@nestjs/common';
import { AssistantsQueries } from '../assistants/assistants.queries';
import { CampaignDocument } from '../campaigns/campaigns.projection';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { DoNotCallQueries } from '../do-not-call/do-not-call.queries';
import { LeadDocument } from '../leads/leads.projection';
import { RetryPolicy } from '../leads/lead.decider';
import { CallingWindow } from '../shared/calling-window';
import { DialRules } from '../shared/compliance/dial-window';
import { UsersQueries } from '../users/users.queries';
import { assertDialable } from './dialable-settings';

/**
 * What a campaign's dials are held to (docs/dialing.md): its calling window, in its assistant's
 * timezone or each lead's, its user's quiet hours, its holidays and do-not-call list; retries
 * follow its settings.
 */
@Injectable()
export class DialingPolicies {
  constructor(
    private readonly campaigns: CampaignsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly users: UsersQueries,
    private readonly doNotCall: DoNotCallQueries,
  ) {}

  /** Which of the lead's numbers, primary and secondary, are on its user's do-not-call list. */
  listedNumbersOf(lead: LeadDocument): Promise<string[]> {
    return this.doNotCall.listed(lead.user_id, [lead.phone_number, ...lead.secondary_contacts.map((c) => c.phone_number)]);
  }

  /** The window in the assistant's timezone, when the campaign reads it there (null otherwise, or without an assistant). */
  async assistantWindow(campaign: CampaignDocument): Promise<CallingWindow | null> {
    if ((campaign.window_timezone ?? 'assistant') !== 'assistant') return null;
    const assistant = await this.assistants.get(campaign.assistant_id);
    if (!assistant) return null;
    return { timezone: assistant.settings.timezone, calling_hours: campaign.calling_hours, calling_days: campaign.calling_days };
  }

  async policyOf(campaign: CampaignDocument): Promise<RetryPolicy | null> {
    const assistant = await this.assistants.get(campaign.assistant_id);
    if (!assistant) return null;
    assertDialable(campaign);
    const rules: DialRules = {
      calling_hours: campaign.calling_hours,
      calling_days: campaign.calling_days,
      window_timezone: campaign.window_timezone ?? 'assistant',
      assistant_timezone: assistant.settings.timezone,
      quiet_hours: await this.users.quietHours(campaign.user_id),
      holidays: campaign.holidays ?? [],
    };
    return { max_retries: campaign.max_retries, retry_delay_seconds: campaign.retry_delay_seconds, by_outcome: campaign.retry_policy ?? {}, rules };
  }

  async retryPolicy(campaignId: number): Promise<RetryPolicy | null> {
    const campaign = await this.campaigns.get(campaignId);
    return campaign && this.policyOf(campaign);
  }
}
