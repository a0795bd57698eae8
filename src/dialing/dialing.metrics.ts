import { Injectable } from '@nestjs/common';
import { Metrics } from '../infrastructure/metrics/metrics';

/** Dialing's counters (docs/api.md): dials sent and their answers, the scheduler's decisions and passes. */
@Injectable()
export class DialingMetrics {
  private readonly placed;
  private readonly decisions;
  private readonly passes;

  constructor(metrics: Metrics) {
    this.placed = metrics.counter('calls_placed_total', 'Dial requests sent to the dialer, by its answer', ['result']);
    this.decisions = metrics.counter('dial_decisions_total', "The scheduler's decisions on campaigns and leads", ['decision']);
    this.passes = metrics.histogram(
      'scheduler_pass_duration_seconds',
      "Duration of the dial scheduler's passes",
      [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    );
  }

  callPlaced(result: 'accepted' | 'refused'): void {
    this.placed.inc({ result });
  }

  dialDecision(decision: string, count = 1): void {
    if (count > 0) this.decisions.inc({ decision }, count);
  }

  schedulerPassed(seconds: number): void {
    this.passes.observe(seconds);
  }
}
