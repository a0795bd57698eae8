import { Injectable } from '@nestjs/common';
import { CampaignDocument, CampaignsProjection } from './campaigns.projection';

/** What other features read of campaigns. */
@Injectable()
export class CampaignsQueries {
  constructor(private readonly projection: CampaignsProjection) {}

  get(id: number): Promise<CampaignDocument | null> {
    return this.projection.campaigns.get(id);
  }

  byIds(ids: number[]): Promise<CampaignDocument[]> {
    return this.projection.campaigns.getMany(ids);
  }

  async owned(organisationId: number, id: number): Promise<CampaignDocument | null> {
    const doc = await this.projection.campaigns.get(id);
    return doc && doc.user_id === organisationId ? doc : null;
  }

  /** Every campaign in progress, by id. */
  inProgress(): Promise<CampaignDocument[]> {
    return this.projection.campaigns.find({ status: 'in-progress' }, { sort: [['id', 'asc']] });
  }
}
