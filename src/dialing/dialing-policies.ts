import { Injectable } from '@nestjs/common';
import { AssistantsQueries } from '../assistants/assistants.queries';
import { CampaignDocument } from '../campaigns/campaigns.projection';
import { CampaignsQueries } from '../campaigns/campaigns.queries';
import { RetryPolicy } from '../leads/lead.decider';
import { CallingWindow } from '../shared/calling-window';
import { assertDialable } from './dialable-settings';

/** A campaign's calling window lives in its assistant's timezone; retries follow the campaign's settings. */
@Injectable()
export class DialingPolicies {
  constructor(
    private readonly campaigns: CampaignsQueries,
    private readonly assistants: AssistantsQueries,
  ) {}

  async window(campaign: CampaignDocument): Promise<CallingWindow | null> {
    const assistant = await this.assistants.get(campaign.assistant_id);
    if (!assistant) return null;
    return { timezone: assistant.settings.timezone, calling_hours: campaign.calling_hours, calling_days: campaign.calling_days };
  }

  async retryPolicy(campaignId: number): Promise<RetryPolicy | null> {
    const campaign = await this.campaigns.get(campaignId);
    const window = campaign && (await this.window(campaign));
    if (!campaign || !window) return null;
    assertDialable(campaign);
    return { max_retries: campaign.max_retries, retry_delay_seconds: campaign.retry_delay_seconds, window };
  }
}
