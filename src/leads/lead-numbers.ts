import { Injectable } from '@nestjs/common';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { HolderStatus } from '../reservations/reservation.decider';
import { Reservations } from '../reservations/reservations';
import { DomainError } from '../shared/domain-error';
import { DUPLICATE_MESSAGE, leadDecider } from './lead.decider';
import { leadStream } from './lead.events';
import { LeadsQueries } from './leads.queries';
import { Sealer } from '../shared/sealing/sealer';
import { DoNotCallQueries } from '../do-not-call/do-not-call.queries';

/** docs/privacy.md: a new lead with an erased number. */
export const ERASED_NUMBER = 'This number asked not to be called.';

/**
 * One reservation stream per campaign and number: the leads that use that number there, named by
 * a keyed hash of the number, never its digits (docs/privacy.md).
 */
export const leadNumberStream = (campaignId: number, numberHash: string) => `lead_number-${campaignId}_${numberHash}`;

/**
 * docs/api.md: a lead's number is unique in its campaign unless duplicates are allowed, decided
 * by an append to the number's reservation stream. A holder counts while its lead is live in that
 * campaign with that number; a deleted or moved lead frees the number by that alone.
 */
@Injectable()
export class LeadNumbers {
  constructor(
    private readonly reservations: Reservations,
    private readonly runner: CommandRunner,
    private readonly leads: LeadsQueries,
    private readonly sealer: Sealer,
    private readonly doNotCall: DoNotCallQueries,
  ) {}

  private stream(campaignId: number, e164: string): string {
    return leadNumberStream(campaignId, this.sealer.keyedHash(e164));
  }

  /**
   * Takes the number for a lead about to be created: refused (docs/api.md's 422) when a live lead holds it,
   * unless allowed. `live`: the campaign's live leads with the number, when the caller knows them
   * already (an import read them for a batch of rows at once; a campaign whose numbers were all
   * reserved from its start has none outside the stream).
   */
  async take(organisationId: number, campaignId: number, e164: string, leadId: number, allowDuplicate: boolean, live?: number[]): Promise<void> {
    // docs/privacy.md: a number whose person was erased is never taken again.
    if ((await this.doNotCall.erased(organisationId, [e164])).length) throw DomainError.validation('phone_number', ERASED_NUMBER);
    const stream = this.stream(campaignId, e164);
    // Leads stored before numbers had reservation streams: put in when the stream is first written.
    const existing = async () => live ?? (await this.leads.liveWithNumber(organisationId, campaignId, e164));
    if (allowDuplicate) return this.reservations.register(stream, leadId, existing);
    const taken = await this.reservations.reserve(stream, leadId, 1, (holder) => this.statusOf(holder, campaignId, e164), existing);
    if (!taken) throw DomainError.validation('phone_number', DUPLICATE_MESSAGE, DUPLICATE_MESSAGE);
  }

  /** Runs the lead's creation after its number was taken: failed, the number is given back unless the lead was made. */
  creating<T>(campaignId: number, e164: string, leadId: number, create: () => Promise<T>): Promise<T> {
    const exists = async () => (await this.runner.load(leadStream(leadId), leadDecider)).state.exists;
    return this.reservations.creating(this.stream(campaignId, e164), leadId, exists, create);
  }

  /** A lead moved or renumbered by an update uses its new number there too (no duplicate check, docs/api.md). */
  async follow(campaignId: number, e164: string, leadId: number): Promise<void> {
    await this.reservations.register(this.stream(campaignId, e164), leadId);
  }

  private async statusOf(leadId: number, campaignId: number, e164: string): Promise<HolderStatus> {
    const { state } = await this.runner.load(leadStream(leadId), leadDecider);
    if (!state.exists) return 'absent';
    return !state.deleted && state.campaignId === campaignId && state.phoneNumber === e164 ? 'live' : 'gone';
  }
}
