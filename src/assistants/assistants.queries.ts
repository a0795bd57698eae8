import { Injectable } from '@nestjs/common';
import { AssistantDocument, AssistantsProjection } from './assistants.projection';

/** What other features read of assistants. */
@Injectable()
export class AssistantsQueries {
  constructor(private readonly projection: AssistantsProjection) {}

  get(id: number): Promise<AssistantDocument | null> {
    return this.projection.assistants.get(id);
  }

  byIds(ids: number[]): Promise<AssistantDocument[]> {
    return this.projection.assistants.getMany(ids);
  }

  /** The user's live assistant, or null for a missing, deleted or foreign one. */
  async owned(organisationId: number, id: number): Promise<AssistantDocument | null> {
    const doc = await this.projection.assistants.get(id);
    return doc && doc.user_id === organisationId && !doc.deleted ? doc : null;
  }

  /** The user's first live assistant answering on this number of theirs, or null. */
  async answering(organisationId: number, phoneNumberId: number): Promise<AssistantDocument | null> {
    const filter = { user_id: organisationId, deleted: false, 'settings.phone_number_id': phoneNumberId };
    const [assistant] = await this.projection.assistants.find(filter, { sort: [['id', 'asc']], limit: 1 });
    return assistant ?? null;
  }
}
