import { Injectable } from '@nestjs/common';
import { Sealer } from '../shared/sealing/sealer';
import { ERASED } from '../shared/sealing/personal-fields';
import { DoNotCallEntry, DoNotCallProjection, entryId } from './do-not-call.projection';

/** What other features read of the do-not-call lists. */
@Injectable()
export class DoNotCallQueries {
  constructor(
    private readonly projection: DoNotCallProjection,
    private readonly sealer: Sealer,
  ) {}

  /** The number's keyed hash: what names it in the list and its stream (docs/privacy.md). */
  numberKey(organisationId: number, e164: string): string {
    return this.sealer.subjectKeyId(organisationId, e164);
  }

  private entry(organisationId: number, e164: string): Promise<DoNotCallEntry | null> {
    return this.projection.entries.get(entryId(organisationId, this.numberKey(organisationId, e164)));
  }

  /** Those of the numbers on the user's list; an erased number (`[erased]`) is never to be called. */
  async listed(organisationId: number, numbers: readonly string[]): Promise<string[]> {
    const found = await Promise.all([...new Set(numbers)].map(async (n) => (n === ERASED || (await this.entry(organisationId, n)) ? n : null)));
    return found.filter((n): n is string => n !== null);
  }

  /**
   * docs/forecast.md: whether a number is on the organisation's list, from one read of the whole
   * list (asking a campaign's every number one by one would cost a read each).
   */
  async listedOf(organisationId: number): Promise<(e164: string) => boolean> {
    const listed = new Set((await this.projection.entries.find({ user_id: organisationId })).map((entry) => entry.phone_number));
    return (e164) => e164 === ERASED || listed.has(e164);
  }

  /** Those of the numbers whose person was erased (docs/privacy.md): refused as new leads. */
  async erased(organisationId: number, numbers: readonly string[]): Promise<string[]> {
    const found = await Promise.all([...new Set(numbers)].map(async (n) => ((await this.entry(organisationId, n))?.source === 'erasure' ? n : null)));
    return found.filter((n): n is string => n !== null);
  }
}
