import { ConcurrencyError } from '../../shared/ports/event-store.errors';
import { DomainEvent } from '../../shared/event-sourcing/decider';
import { declareFields } from '../../shared/event-sourcing/event-fields';
import { AppendResult, ExpectedRevision, NewEvent } from '../../shared/ports/event-store.port';

export type IdBlockReserved = DomainEvent<'IdBlockReserved', { sequence: string; first: number; last: number }>;
declareFields<IdBlockReserved>({ IdBlockReserved: { sequence: 'plain', first: 'plain', last: 'plain' } });

/** Ids reserved by one append: concurrent writers conflict once per block, not once per id. */
export const ID_BLOCK_SIZE = 100;

/** The last event of a sequence's stream, as the store holds it. */
export interface LastOfStream {
  revision: number;
  type: string;
  data: { last?: number };
}

export interface IdBlockStore {
  last(stream: string): Promise<LastOfStream | null>;
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
}

/**
 * Ids of a named sequence for a store whose only atomic step is an append with an expected
 * revision (EventStoreDB): each `IdBlockReserved` event takes the next ID_BLOCK_SIZE ids for
 * this process, which hands them out one by one. Writers racing for a block retry on the
 * revision the winner wrote; ids stay unique and growing per process, and a process that
 * stops leaves the rest of its block unused.
 */
export class IdBlocks {
  private readonly blocks = new Map<string, { next: number; last: number }>();
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(private readonly store: IdBlockStore) {}

  async next(sequence: string): Promise<number> {
    for (;;) {
      const block = this.blocks.get(sequence);
      if (block && block.next <= block.last) return block.next++;
      let reserving = this.reserving.get(sequence);
      if (!reserving) {
        reserving = this.reserve(sequence).finally(() => this.reserving.delete(sequence));
        this.reserving.set(sequence, reserving);
      }
      await reserving;
    }
  }

  private async reserve(sequence: string): Promise<void> {
    const stream = `sequence-${sequence}`;
    for (;;) {
      const last = await this.store.last(stream);
      // Streams written one id per event (IdAllocated) before blocks: the revision is the last id less one.
      const taken = !last ? 0 : last.type === 'IdBlockReserved' ? last.data.last! : last.revision + 1;
      const first = taken + 1;
      try {
        await this.store.append(
          stream,
          [{ type: 'IdBlockReserved', data: { sequence, first, last: taken + ID_BLOCK_SIZE } }],
          last ? last.revision : 'no_stream',
        );
        this.blocks.set(sequence, { next: first, last: taken + ID_BLOCK_SIZE });
        return;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
      }
    }
  }
}
