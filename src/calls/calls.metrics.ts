import { Injectable } from '@nestjs/common';
import { Metrics } from '../infrastructure/metrics/metrics';

/** Calls' counter (docs/api.md): calls that reached a terminal status. */
@Injectable()
export class CallsMetrics {
  private readonly finished;

  constructor(metrics: Metrics) {
    this.finished = metrics.counter('calls_finished_total', 'Calls that reached a terminal status, by status', ['status']);
  }

  callFinished(status: string): void {
    this.finished.inc({ status });
  }
}
