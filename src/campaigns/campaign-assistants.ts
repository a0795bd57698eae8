import { Injectable } from '@nestjs/common';
import { AssistantsQueries } from '../assistants/assistants.queries';

/** What campaigns need of assistants: whether one may place calls, and its timezone. */
@Injectable()
export class CampaignAssistants {
  constructor(private readonly assistants: AssistantsQueries) {}

  async canCall(organisationId: number, assistantId: number): Promise<boolean> {
    const assistant = await this.assistants.owned(organisationId, assistantId);
    return assistant?.settings.calls_direction === 'make';
  }

  async timezones(ids: number[]): Promise<Map<number, string>> {
    const docs = await this.assistants.byIds(ids);
    return new Map(docs.map((d) => [d.id, d.settings.timezone]));
  }
}
