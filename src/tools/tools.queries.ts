import { Injectable } from '@nestjs/common';
import { ToolRecord, ToolsProjection } from './tools.projection';

/** What other features read of tools. */
@Injectable()
export class ToolsQueries {
  constructor(private readonly projection: ToolsProjection) {}

  /** How many of these ids are the user's tools. */
  countOwned(organisationId: number, ids: number[]): Promise<number> {
    return ids.length ? this.projection.tools.count({ user_id: organisationId, id: { in: ids } }) : Promise.resolve(0);
  }

  byIds(ids: number[]): Promise<ToolRecord[]> {
    return this.projection.tools.getMany(ids);
  }

  /** The user's tool of this name among these ids, or null. */
  async named(organisationId: number, name: string, ids: number[]): Promise<ToolRecord | null> {
    if (!ids.length) return null;
    const [tool] = await this.projection.tools.find({ user_id: organisationId, name, id: { in: ids } }, { limit: 1 });
    return tool ?? null;
  }
}
