import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { doNotCallDecider } from '../do-not-call.decider';
import { ListingSource, doNotCallStream } from '../do-not-call.events';
import { DoNotCallQueries } from '../do-not-call.queries';

/** Numbers listed at once: their appends share the event store's commits. */
const AT_ONCE = 256;

export class AddToDoNotCall {
  constructor(
    readonly organisationId: number,
    readonly phoneNumbers: readonly string[],
    readonly reason: string | null,
    readonly source: ListingSource,
  ) {}
}

/** Lists numbers for a user; answers how many were not listed before. */
@CommandHandler(AddToDoNotCall)
export class AddToDoNotCallHandler implements ICommandHandler<AddToDoNotCall, number> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly list: DoNotCallQueries,
  ) {}

  async execute({ organisationId, phoneNumbers, reason, source }: AddToDoNotCall): Promise<number> {
    const numbers = [...new Set(phoneNumbers)];
    let added = 0;
    let last: number | null = null;
    for (let i = 0; i < numbers.length; i += AT_ONCE) {
      const chunk = numbers.slice(i, i + AT_ONCE);
      const before = new Set(await this.list.listed(organisationId, chunk));
      const results = await Promise.all(
        chunk.map((phoneNumber) => {
          const numberKey = this.list.numberKey(organisationId, phoneNumber);
          // The reason is about the person listed: sealed under their key, erased with them.
          return this.runner.run(
            doNotCallStream(organisationId, numberKey),
            doNotCallDecider,
            { type: 'AddToDoNotCall', organisationId, phoneNumber, reason, source, listedBefore: before.has(phoneNumber) },
            { retries: 10, subject: numberKey },
          );
        }),
      );
      for (const { events, position } of results) {
        added += events.length;
        if (position !== null) last = Math.max(last ?? 0, position);
      }
    }
    await this.projections.settle(last);
    return added;
  }
}
