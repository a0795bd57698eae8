import { Injectable } from '@nestjs/common';
import { Sealer } from '../shared/sealing/sealer';
import { ERASED } from '../shared/sealing/personal-fields';
import { yieldToIo } from '../shared/yield-to-io';
import { DoNotCallEntry, DoNotCallProjection, entryId } from './do-not-call.projection';

/** How many numbers one look-up of a long list asks for. */
const LOOKUP_CHUNK = 500;

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
   * docs/forecast.md: which of `numbers` are on the organisation's list. A list no longer than
   * the numbers is read whole, once (asking each of a campaign's numbers would cost a read each);
   * a longer one is asked for the numbers, LOOKUP_CHUNK at a time through its index (a list of
   * 10,000,000 numbers read whole would not fit in memory). It answers for the numbers asked
   * alone: another number may read as not listed.
   */
  async listedAmong(organisationId: number, numbers: readonly string[]): Promise<(e164: string) => boolean> {
    const found = new Set<string>();
    // Whether the list holds more entries than the numbers: a cost bounded by the numbers, not the list.
    const longer = (await this.projection.entries.find({ user_id: organisationId }, { skip: numbers.length, limit: 1 })).length > 0;
    if (!longer) {
      const list = await this.projection.entries.snapshot({ user_id: organisationId });
      try {
        for await (const page of list.pages()) for (const entry of page) found.add(entry.phone_number);
      } finally {
        await list.close();
      }
    } else {
      const asked = [...new Set(numbers)].filter((n) => n !== ERASED);
      for (let i = 0; i < asked.length; i += LOOKUP_CHUNK) {
        const chunk = asked.slice(i, i + LOOKUP_CHUNK);
        for (const entry of await this.projection.entries.find({ user_id: organisationId, phone_number: { in: chunk } })) found.add(entry.phone_number);
        // Each read is synchronous on the embedded store: requests are let in between.
        await yieldToIo();
      }
    }
    return (e164) => e164 === ERASED || found.has(e164);
  }

  /** Those of the numbers whose person was erased (docs/privacy.md): refused as new leads. */
  async erased(organisationId: number, numbers: readonly string[]): Promise<string[]> {
    // Most organisations never erased anyone: one document, kept, answers for all their numbers.
    if (!(await this.projection.erasures.get(organisationId))) return [];
    const found = await Promise.all([...new Set(numbers)].map(async (n) => ((await this.entry(organisationId, n))?.source === 'erasure' ? n : null)));
    return found.filter((n): n is string => n !== null);
  }
}
