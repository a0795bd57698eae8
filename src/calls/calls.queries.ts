import { Injectable } from '@nestjs/common';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { Filter } from '../shared/ports/document-store.port';
import { toE164 } from '../shared/phone';
import { sqlDateTime } from '../shared/formats';
import { CallReportDay } from './call-report';
import { CallFilterQuery } from './call.dto';
import { CallDocument, CallsProjection } from './calls.projection';

/** The calls list's filter (docs/api.md) of an organisation's calls; dates are whole UTC days, both ends included. */
export function callListFilter(organisationId: number, query: CallFilterQuery): Filter {
  const createdAt =
    query.date_from || query.date_to ? { gte: query.date_from && `${query.date_from} 00:00:00`, lte: query.date_to && `${query.date_to} 23:59:59` } : undefined;
  return {
    user_id: organisationId,
    status: query.status,
    type: query.type,
    client_phone_number: query.phone_number === undefined ? undefined : (toE164(query.phone_number) ?? query.phone_number),
    assistant_id: query.assistant_id,
    campaign_id: query.campaign_id,
    created_at: createdAt,
  };
}

/** What other features read of calls. */
@Injectable()
export class CallsQueries {
  constructor(
    private readonly projection: CallsProjection,
    private readonly runner: ProjectionRunner,
  ) {}

  get(id: number): Promise<CallDocument | null> {
    return this.projection.calls.get(id);
  }

  /** The calls of these ids that the read model holds, in one read. */
  getMany(ids: readonly number[]): Promise<CallDocument[]> {
    return this.projection.calls.getMany([...ids]);
  }

  /**
   * Finds a call a runtime reports on, looked for once more after the read models caught up with
   * the event store when missing: a runtime may speak of a call before its dial was projected.
   */
  async reported(find: (calls: CallsQueries) => Promise<CallDocument | null>): Promise<CallDocument | null> {
    const call = await find(this);
    if (call) return call;
    await this.runner.catchUp();
    return find(this);
  }

  /** docs/privacy.md: when the organisation's `n`-th call made at or after `from` (epoch ms) was made; null with fewer. */
  async nthMadeSince(organisationId: number, from: number, n: number): Promise<number | null> {
    const filter = { user_id: organisationId, created_at: { gte: sqlDateTime(new Date(from).toISOString()) } };
    const [call] = await this.projection.calls.find(filter, { sort: [['created_at', 'asc']], skip: n - 1, limit: 1 });
    return call ? Date.parse(`${call.created_at.replace(' ', 'T')}Z`) : null;
  }

  /** docs/privacy.md: the organisation's calls with `phoneNumber`, newest first. */
  toNumber(organisationId: number, phoneNumber: string): Promise<CallDocument[]> {
    return this.projection.calls.find({ user_id: organisationId, client_phone_number: phoneNumber }, { sort: [['id', 'desc']] });
  }

  async owned(organisationId: number, id: number): Promise<CallDocument | null> {
    const doc = await this.projection.calls.get(id);
    return doc && doc.user_id === organisationId ? doc : null;
  }

  /** docs/reports.md: a campaign's counters by day of its calls' creation, within `[fromDay, toDay]` (`YYYY-MM-DD`), oldest first. */
  reportDays(campaignId: number, fromDay?: string, toDay?: string): Promise<CallReportDay[]> {
    const day = fromDay || toDay ? { gte: fromDay, lte: toDay } : undefined;
    return this.projection.report.days.find({ campaign_id: campaignId, day }, { sort: [['day', 'asc']] });
  }

  /** A campaign's most recent calls, newest first. */
  latestOfCampaign(organisationId: number, campaignId: number, limit: number): Promise<CallDocument[]> {
    return this.projection.calls.find({ user_id: organisationId, campaign_id: campaignId }, { sort: [['id', 'desc']], limit });
  }

  /** The call a runtime knows by its own id (docs/real-calls.md), or null. */
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
