import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { isoMicros } from '../shared/formats';
import { CampaignEvent, CampaignSettings, CampaignStatus, CAMPAIGN_EVENT_TYPES, StopReason } from './campaign.events';

export interface CampaignDocument extends CampaignSettings {
  id: number;
  user_id: number;
  status: CampaignStatus;
  /** Why the dialer last failed on the campaign, while it has not dialed it since; absent in older documents. */
  last_error?: { message: string; at: string } | null;
  /** Why it is stopped (absent in older documents: the user); null while not stopped. */
  stopped_reason?: StopReason | null;
  /** Whether each of its leads' numbers is in its reservation streams (see CampaignCreated); absent in older campaigns. */
  numbers_reserved?: true;
  /** When it was last started: its failure breaker judges the calls since. */
  started_at?: string | null;
  created_at: string;
  updated_at: string;
}

const STATUS_AFTER: Partial<Record<CampaignEvent['type'], CampaignStatus>> = {
  CampaignStarted: 'in-progress',
  CampaignStopped: 'stopped',
  CampaignCompleted: 'completed',
};

@Projection()
@Injectable()
export class CampaignsProjection implements ReadModelProjection {
  readonly name = 'campaigns';
  readonly collections = ['campaigns'];
  readonly eventTypes = CAMPAIGN_EVENT_TYPES;
  readonly campaigns: Collection<CampaignDocument>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.campaigns = store.collection<CampaignDocument>('campaigns', {
      indexes: [{ fields: ['user_id', 'id'] }, { fields: ['status', 'id'] }],
    });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    const event = recorded as RecordedEvent & CampaignEvent;
    const at = isoMicros(recorded.occurredAt);
    if (event.type === 'CampaignCreated') {
      const { campaign_id: id, user_id, settings, numbers_reserved } = event.data;
      const reserved = numbers_reserved ? { numbers_reserved } : {};
      await this.campaigns.upsert(id, { id, user_id, status: 'draft', ...settings, ...reserved, created_at: at, updated_at: at }, recorded.position);
      return;
    }
    const current = await this.campaigns.get(event.data.campaign_id);
    if (!current) return;
    if (event.type === 'CampaignDialingFailed' || event.type === 'CampaignDialingRecovered') {
      const last_error = event.type === 'CampaignDialingFailed' ? { message: event.data.message, at } : null;
      await this.campaigns.upsert(current.id, { ...current, last_error }, recorded.position);
      return;
    }
    const changes =
      event.type === 'CampaignUpdated'
        ? event.data.changes
        : {
            status: STATUS_AFTER[event.type]!,
            stopped_reason: event.type === 'CampaignStopped' ? (event.data.reason ?? 'user') : null,
            ...(event.type === 'CampaignStarted' ? { started_at: recorded.occurredAt } : {}),
          };
    await this.campaigns.upsert(current.id, { ...current, ...changes, updated_at: at }, recorded.position);
  }
}
