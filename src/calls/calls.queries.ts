import { Injectable } from '@nestjs/common';
import { CallDocument, CallsProjection } from './calls.projection';

/** What other features read of calls. */
@Injectable()
export class CallsQueries {
  constructor(private readonly projection: CallsProjection) {}

  get(id: number): Promise<CallDocument | null> {
    return this.projection.calls.get(id);
  }

  async owned(userId: number, id: number): Promise<CallDocument | null> {
    const doc = await this.projection.calls.get(id);
    return doc && doc.user_id === userId ? doc : null;
  }

  /** A campaign's most recent calls, newest first. */
  latestOfCampaign(userId: number, campaignId: number, limit: number): Promise<CallDocument[]> {
    return this.projection.calls.find({ user_id: userId, campaign_id: campaignId }, { sort: [['id', 'desc']], limit });
  }

  /** The call a runtime knows by its own id (contract §18), or null. */
  async byProviderCallId(providerCallId: string): Promise<CallDocument | null> {
    return (await this.projection.calls.find({ provider_call_id: providerCallId }, { limit: 1 }))[0] ?? null;
  }

  /** Open calls past their deadline (epoch ms), the longest overdue first. */
  overdue(now: number, limit: number): Promise<CallDocument[]> {
    return this.projection.calls.find({ deadline_at: { lte: now } }, { sort: [['deadline_at', 'asc']], limit });
  }

  /** Ended calls whose awaited analysis is overdue (epoch ms), the longest overdue first. */
  analysisOverdue(now: number, limit: number): Promise<CallDocument[]> {
    return this.projection.calls.find({ analysis_due_at: { lte: now } }, { sort: [['analysis_due_at', 'asc']], limit });
  }

  /** Calls whose dial was not confirmed sent by `before` (epoch ms), the oldest first. */
  unsentBefore(before: number, limit: number): Promise<CallDocument[]> {
    return this.projection.calls.find({ resend_from: { lte: before } }, { sort: [['resend_from', 'asc']], limit });
  }
}
