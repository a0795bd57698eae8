import { Injectable } from '@nestjs/common';
import { voiceById } from '../catalog/catalog';
import { PhoneNumbersProjection } from '../phone-numbers/phone-numbers.projection';
import { ToolsProjection } from '../tools/tools.projection';
import { References } from './assistant.decider';

/** Looks up what a command's voice, phone number and tool ids point at, for the decider to judge. */
@Injectable()
export class AssistantReferences {
  constructor(
    private readonly tools: ToolsProjection,
    private readonly phoneNumbers: PhoneNumbersProjection,
  ) {}

  async check(userId: number, fields: { voice_id?: number | null; phone_number_id?: number | null; tool_ids?: number[] | null }): Promise<References> {
    const toolIds = [...new Set(fields.tool_ids ?? [])];
    const [phone, ownedTools] = await Promise.all([
      typeof fields.phone_number_id === 'number' ? this.phoneNumbers.owned(userId, fields.phone_number_id) : null,
      toolIds.length ? this.tools.tools.count({ user_id: userId, id: { in: toolIds } }) : 0,
    ]);
    return {
      voiceExists: typeof fields.voice_id === 'number' && voiceById(fields.voice_id) !== undefined,
      phoneNumberOwned: phone !== null,
      toolsOwned: ownedTools === toolIds.length,
    };
  }
}
