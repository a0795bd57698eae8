import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Sweep } from '../../infrastructure/background/sweep';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { RETAINED_KINDS } from '../../shared/event-sourcing/event-fields';
import { WorkLeases } from '../../infrastructure/leases/work-leases';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { BACKGROUND_WORK } from '../../infrastructure/reactors/reactor';
import { DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { RETENTION_BUCKET_MS, Sealer, retentionKeyIdAt } from '../../shared/sealing/sealer';
import { Clock } from '../../shared/clock';
import { UsersQueries } from '../../users/users.queries';
import { retentionDecider, retentionStream } from './retention.decider';

const DAY_MS = 24 * 3600_000;
/** Runs every five minutes: a key falls due at the end of its ten minutes, so values go within 15 minutes of falling due. */
export const RETENTION_SWEEP_MS = 5 * 60_000;

/**
 * docs/privacy.md: for each organisation keeping some kind of value for a while, the keys of
 * the ten-minute spans whose every value is older than its days are destroyed (crypto-shredding,
 * as an erasure), then `RetainedValuesErased` has the read models put `[erased]` in their place.
 */
@Injectable()
export class RetentionSweep extends Sweep {
  constructor(
    private readonly users: UsersQueries,
    private readonly runner: CommandRunner,
    private readonly sealer: Sealer,
    private readonly projections: ProjectionRunner,
    @Inject(READ_STORE) private readonly reads: DocumentStore,
    private readonly clock: Clock,
    registry: SchedulerRegistry,
    @Inject(BACKGROUND_WORK) background: boolean,
    leases: WorkLeases,
  ) {
    super('RetentionSweep', registry, background, RETENTION_SWEEP_MS, Number.POSITIVE_INFINITY, leases);
  }

  /** Erases every span fallen due; answers how many organisations and kinds had some. */
  async sweepOnce(): Promise<number> {
    const now = this.clock.now().getTime();
    let swept = 0;
    let last: number | null = null;
    for (const organisation of await this.users.retaining()) {
      const { state } = await this.runner.load(retentionStream(organisation.id), retentionDecider);
      for (const kind of RETAINED_KINDS) {
        const days = organisation.retention[`${kind}_days`];
        if (days === null) continue;
        // Spans that end at or before the cutoff hold only values older than `days`.
        const until = Math.floor((now - days * DAY_MS) / RETENTION_BUCKET_MS) * RETENTION_BUCKET_MS;
        const done = state[kind] ?? new Date(Math.floor(Date.parse(organisation.created_at) / RETENTION_BUCKET_MS) * RETENTION_BUCKET_MS).toISOString();
        if (until <= Date.parse(done)) continue;
        const spans: string[] = [];
        for (let span = Date.parse(done); span < until; span += RETENTION_BUCKET_MS) spans.push(retentionKeyIdAt(organisation.id, kind, span));
        // Destroyed together: the key store's files are cleaned once for them all.
        for (let i = 0; i < spans.length; i += 1000) await Promise.all(spans.slice(i, i + 1000).map((key) => this.sealer.destroyRetentionKey(key)));
        const command = { type: 'RecordErased' as const, organisationId: organisation.id, kind, from: done, until: new Date(until).toISOString() };
        last = (await this.runner.run(retentionStream(organisation.id), retentionDecider, command)).position ?? last;
        swept++;
      }
    }
    if (last !== null) {
      await this.projections.settle(last, { background: true });
      await this.reads.forgetOverwritten?.();
    }
    return swept;
  }
}
