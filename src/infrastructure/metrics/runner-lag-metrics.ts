import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../shared/clock';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../projections/projection-runner';
import { ReactorRunner } from '../reactors/reactor-runner';
import { Metrics } from './metrics';

/** How far the projections and each reactor are behind the event store, in events and in seconds. */
@Injectable()
export class RunnerLagMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly projections: ProjectionRunner,
    private readonly reactors: ReactorRunner,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge('projection_lag_events', 'Events stored that the projections have not applied', [], async (set) =>
      set({}, await this.lagEvents(this.projections.position)),
    );
    this.metrics.gauge('projection_lag_seconds', 'Age of the oldest event the projections have not applied', [], async (set) =>
      set({}, await this.lagSeconds(this.projections.position)),
    );
    this.metrics.gauge('reactor_lag_events', 'Events stored that a reactor has not handled', ['reactor'], async (set) => {
      for (const { name, position } of this.reactors.positions()) set({ reactor: name }, await this.lagEvents(position));
    });
    this.metrics.gauge('reactor_lag_seconds', 'Age of the oldest event a reactor has not handled', ['reactor'], async (set) => {
      for (const { name, position, types } of this.reactors.positions()) set({ reactor: name }, await this.lagSeconds(position, types));
    });
  }

  /** Positions only grow; a store's positions may skip numbers, so this is an upper bound. */
  private async lagEvents(position: number): Promise<number> {
    return Math.max(0, (await this.events.headPosition()) - position);
  }

  private async lagSeconds(position: number, types?: readonly string[]): Promise<number> {
    const [next] = await this.events.readAll(position, 1, types);
    return next ? Math.max(0, (this.clock.now().getTime() - Date.parse(next.occurredAt)) / 1000) : 0;
  }
}
