import { Injectable } from '@nestjs/common';
import { AssistantsProjection } from '../assistants/assistants.projection';
import { CampaignDocument, CampaignsProjection } from '../campaigns/campaigns.projection';
import { RetryPolicy } from '../leads/lead.decider';
import { CallingWindow } from './calling-window';
import { assertDialable } from './dialable-settings';

/** A campaign's calling window lives in its assistant's timezone; retries follow the campaign's settings. */
@Injectable()
export class DialingPolicies {
  constructor(
    private readonly campaigns: CampaignsProjection,
    private readonly assistants: AssistantsProjection,
  ) {}

  async window(campaign: CampaignDocument): Promise<CallingWindow | null> {
    const assistant = await this.assistants.assistants.get(campaign.assistant_id);
    if (!assistant) return null;
    return { timezone: assistant.settings.timezone, calling_hours: campaign.calling_hours, calling_days: campaign.calling_days };
  }

  async retryPolicy(campaignId: number): Promise<RetryPolicy | null> {
    const campaign = await this.campaigns.campaigns.get(campaignId);
    const window = campaign && (await this.window(campaign));
    if (!campaign || !window) return null;
    assertDialable(campaign);
    return { max_retries: campaign.max_retries, retry_delay_seconds: campaign.retry_delay_seconds, window };
  }
}
