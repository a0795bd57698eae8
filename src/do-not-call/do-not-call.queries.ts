import { Injectable } from '@nestjs/common';
import { DoNotCallProjection, entryId } from './do-not-call.projection';

/** What other features read of the do-not-call lists. */
@Injectable()
export class DoNotCallQueries {
  constructor(private readonly projection: DoNotCallProjection) {}

  /** Those of the numbers on the user's list. */
  async listed(organisationId: number, numbers: readonly string[]): Promise<string[]> {
    const found = await Promise.all([...new Set(numbers)].map(async (n) => ((await this.projection.entries.get(entryId(organisationId, n))) ? n : null)));
    return found.filter((n): n is string => n !== null);
  }
}
