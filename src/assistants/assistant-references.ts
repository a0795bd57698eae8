import { Injectable } from '@nestjs/common';
import { voiceById } from '../catalog/catalog';
import { PhoneNumbersQueries } from '../phone-numbers/phone-numbers.queries';
import { ToolsQueries } from '../tools/tools.queries';
import { References } from './assistant.decider';
import { PublicTargets } from '../infrastructure/outbound/public-targets';

/** Looks up what a command's voice, phone number and tool ids point at, for the decider to judge. */
@Injectable()
export class AssistantReferences {
  constructor(
    private readonly tools: ToolsQueries,
    private readonly phoneNumbers: PhoneNumbersQueries,
    private readonly targets: PublicTargets,
  ) {}

  async check(
    organisationId: number,
    fields: {
      voice_id?: number | null;
      phone_number_id?: number | null;
      tool_ids?: number[] | null;
      webhook_url?: string | null;
      inbound_webhook_url?: string | null;
    },
  ): Promise<References> {
    const toolIds = [...new Set(fields.tool_ids ?? [])];
    const isPublic = (url: string | null | undefined) => (typeof url === 'string' ? this.targets.accepts(url) : true);
    const [phone, ownedTools, webhookUrlPublic, inboundWebhookUrlPublic] = await Promise.all([
      typeof fields.phone_number_id === 'number' ? this.phoneNumbers.owned(organisationId, fields.phone_number_id) : null,
      this.tools.countOwned(organisationId, toolIds),
      isPublic(fields.webhook_url),
      isPublic(fields.inbound_webhook_url),
    ]);
    return {
      voiceExists: typeof fields.voice_id === 'number' && voiceById(fields.voice_id) !== undefined,
      phoneNumberOwned: phone !== null,
      toolsOwned: ownedTools === toolIds.length,
      webhookUrlPublic,
      inboundWebhookUrlPublic,
    };
  }
}
