import { Injectable } from '@nestjs/common';
import { AssistantsQueries } from '../assistants/assistants.queries';
import { CampaignDocument } from '../campaigns/campaigns.projection';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { RetryPolicy } from '../leads/lead.decider';
import { CallingWindow } from '../shared/calling-window';
import { DialRules } from '../shared/compliance/dial-window';
import { UsersQueries } from '../users/users.queries';
import { assertDialable } from './dialable-settings';

/**
 * What a campaign's dials are held to (contract §13): its calling window, in its assistant's
 * timezone or each lead's, its user's quiet hours and its holidays; retries follow its settings.
 */
@Injectable()
export class DialingPolicies {
  constructor(
    private readonly campaigns: CampaignsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly users: UsersQueries,
  ) {}

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
