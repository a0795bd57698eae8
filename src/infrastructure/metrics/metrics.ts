import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics (docs/api.md), in a registry of the app's own: several
 * apps in one process (the tests) each count their own. Requests and appends are counted here;
 * the features make their own counters (`*.metrics.ts`), moved where things happen; gauges that
 * describe stored state are read when scraped, by collectors the features and the runners register.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly eventsAppended = new Counter({
    name: 'events_appended_total',
    help: 'Events appended by the command path, by type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  httpRequest(route: string, method: string, status: number, seconds: number): void {
    this.httpDuration.observe({ route, method, status: String(status) }, seconds);
  }

  appended(types: readonly string[]): void {
    for (const type of types) this.eventsAppended.inc({ type });
  }

  /** A counter of a feature's own (docs/api.md lists them). */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  histogram(name: string, help: string, buckets: number[]): Histogram {
    return new Histogram({ name, help, buckets, registers: [this.registry] });
  }

  /** A gauge whose values are read when scraped: `collect` sets each label set's value. */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (set: (labels: Record<L, string>, value: number) => void) => Promise<void>,
  ): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        await collect((labels, value) => this.set(labels, value));
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
