import { CommandBus } from '@nestjs/cqrs';
import { RecordDialingFailure } from '../campaigns/commands/record-dialing-health';
import { RecordedEvent } from '../shared/ports/event-store.port';

/** A dialing reactor's parked event shows on its campaign as `last_error` (docs/api.md). */
export async function showOnCampaign(commands: CommandBus, event: RecordedEvent, error: string, retryAt: Date): Promise<void> {
  const campaignId = (event.data as { campaign_id?: unknown }).campaign_id;
  if (typeof campaignId === 'number') await commands.execute(new RecordDialingFailure(campaignId, error, retryAt));
}
