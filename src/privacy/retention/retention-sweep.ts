import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Sweep } from '../../infrastructure/background/sweep';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { RETAINED_KINDS, RetainedKind } from '../../shared/event-sourcing/event-fields';
import { CallsQueries } from '../../calls/calls.queries';
import { WebhookDeliveriesQueries } from '../../webhooks/webhook-deliveries.queries';
import { NthMadeSince, retentionSteps } from './retention-steps';
import { WorkLeases } from '../../infrastructure/leases/work-leases';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { BACKGROUND_WORK } from '../../infrastructure/reactors/reactor';
import { DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { Sealer } from '../../shared/sealing/sealer';
import { RETENTION_BUCKET_MS } from '../../shared/sealing/sealed-values';
import { Clock } from '../../shared/clock';
import { UsersQueries } from '../../users/users.queries';
import { retentionDecider, retentionStream } from './retention.decider';

const DAY_MS = 24 * 3600_000;
/**
 * The calls, and the deliveries, one step has the read models rewrite at most: a first sweep over
 * a long history is many short projection steps, each with other work between, not one that holds
 * the service (and its memory) for the whole history.
 */
const VALUES_A_STEP = 1000;
/** Runs every five minutes: a key falls due at the end of its ten minutes, so values go within 15 minutes of falling due. */
export const RETENTION_SWEEP_MS = 5 * 60_000;

/**
 * docs/privacy.md: for each organisation keeping some kind of value for a while, the keys of
 * the ten-minute spans whose every value is older than its days are destroyed (crypto-shredding,
 * as an erasure), then `RetainedValuesErased` has the read models put `[erased]` in their place,
 * a thousand calls at most a step.
 */
@Injectable()
export class RetentionSweep extends Sweep {
  constructor(
    private readonly users: UsersQueries,
    private readonly calls: CallsQueries,
    private readonly deliveries: WebhookDeliveriesQueries,
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
    for (const organisation of await this.users.retaining()) {
      const { state } = await this.runner.load(retentionStream(organisation.id), retentionDecider);
      for (const kind of RETAINED_KINDS) {
        const days = organisation.retention[`${kind}_days`];
        if (days === null) continue;
        // Spans that end at or before the cutoff hold only values older than `days`.
        const until = Math.floor((now - days * DAY_MS) / RETENTION_BUCKET_MS) * RETENTION_BUCKET_MS;
        const done = state[kind] ?? new Date(Math.floor(Date.parse(organisation.created_at) / RETENTION_BUCKET_MS) * RETENTION_BUCKET_MS).toISOString();
        if (until <= Date.parse(done)) continue;
        for await (const [from, end] of retentionSteps(Date.parse(done), until, RETENTION_BUCKET_MS, VALUES_A_STEP, this.madeSince(organisation.id))) {
          await this.eraseStep(organisation.id, kind, from, end);
        }
        swept++;
      }
    }
    if (swept > 0) await this.reads.forgetOverwritten?.();
    return swept;
  }

  /** Each count a step is bounded by: the read models' `RetainedValuesErased` rewrite these. */
  private madeSince(organisationId: number): NthMadeSince[] {
    return [(from, n) => this.calls.nthMadeSince(organisationId, from, n), (from, n) => this.deliveries.nthMadeSince(organisationId, from, n)];
  }

  /** One step: its spans' keys destroyed, then recorded and projected before the next step is counted. */
  private async eraseStep(organisationId: number, kind: RetainedKind, from: number, end: number): Promise<void> {
    await this.sealer.destroyRetentionKeys(organisationId, kind, from, end);
    const command = { type: 'RecordErased' as const, organisationId, kind, from: new Date(from).toISOString(), until: new Date(end).toISOString() };
    const { position } = await this.runner.run(retentionStream(organisationId), retentionDecider, command);
    if (position !== null) await this.projections.projected(position);
  }
}
