import { Inject, Injectable } from '@nestjs/common';
import { DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { EVENT_STORE, EventStore, RecordedEvent } from '../../shared/ports/event-store.port';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { actorOf } from '../../shared/event-sourcing/actor';
import { ReactsToEvents, Reactor } from '../../infrastructure/reactors/reactor';
import { Sealer } from '../../shared/sealing/sealer';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { erasureDecider } from './erasure.decider';
import { SubjectErasureRequested, erasureStream } from './erasure.events';
import { SubjectHoldings } from './subject-holdings';

/**
 * docs/privacy.md: an erasure carried out: what holds the number's values found (while they can
 * be), its key destroyed (the log's values unreadable from then on), then `SubjectErased`, on
 * which each read model puts `[erased]` in place of them. Each step is recorded, so a crash
 * between them goes on from the last.
 */
@ReactsToEvents()
@Injectable()
export class EraseSubjectsReactor implements Reactor {
  readonly name = 'subject-erasures';
  readonly eventTypes: readonly SubjectErasureRequested['type'][] = ['SubjectErasureRequested'];

  constructor(
    private readonly runner: CommandRunner,
    private readonly sealer: Sealer,
    private readonly holdings: SubjectHoldings,
    private readonly projections: ProjectionRunner,
    @Inject(READ_STORE) private readonly reads: DocumentStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async react(event: RecordedEvent): Promise<void> {
    const { erasure_id, user_id, phone_number } = (event as RecordedEvent & SubjectErasureRequested).data;
    const stream = erasureStream(erasure_id);
    const { state } = await this.runner.load(stream, erasureDecider);
    if (state.done) return;
    const subject_key = this.sealer.subjectKeyId(user_id, phone_number);
    if (!state.holdings) {
      // The read models must have seen everything written before the request to name it all.
      await this.projections.settle(event.position);
      const found = await this.holdings.of(user_id, phone_number);
      await this.runner.run(stream, erasureDecider, { type: 'RecordHoldings', erasure_id, user_id, subject_key, ...found });
    }
    await this.sealer.eraseSubject(state.holdings?.subject_key ?? subject_key);
    const erased = await this.runner.run(stream, erasureDecider, { type: 'CompleteErasure', requestedBy: actorOf(event.metadata) });
    // Done once every read model has put `[erased]` in place of the values, and their files keep no copy.
    await this.projections.settle(erased.position ?? (await this.events.headPosition()));
    await this.reads.forgetOverwritten?.();
    await this.runner.run(stream, erasureDecider, { type: 'FinishErasure' });
  }
}
