import { asSystem } from '../../shared/event-sourcing/actor';
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { yieldToIo } from '../../shared/yield-to-io';
import { LeasedWork } from '../leases/work-leases';

/**
 * Work that runs on an interval and when nudged, never two runs at once: a nudge during a
 * run asks for one more right after it, and a run answering true asks for one more too
 * (there may be more to do). Registered with @nestjs/schedule so it shows among the app's
 * intervals and stops with it.
 */
export class RepeatingJob {
  private readonly logger: Logger;
  private running?: Promise<void>;
  private pending = false;
  private stopped = true;

  /**
   * `share`: at most this share of the time, when runs follow each other: after a run, the next
   * waits in proportion to how long it took (0.5: as long again), so the event loop keeps the rest
   * for the work the runs start (a scheduler's pass over a thousand campaigns would otherwise
   * starve the reactors that place and finish its calls).
   */
  constructor(
    private readonly name: string,
    private readonly registry: SchedulerRegistry,
    private readonly work: () => Promise<boolean>,
    private readonly share = 1,
  ) {
    this.logger = new Logger(name);
  }

  start(intervalMs: number): void {
    this.stopped = false;
    const timer = setInterval(() => this.nudge(), intervalMs);
    timer.unref();
    this.registry.addInterval(this.name, timer);
    this.nudge();
  }

  /** The job as work that runs only in the instance holding its lease (see WorkLeases). */
  leased(intervalMs: number): LeasedWork {
    return { name: `job:${this.name}`, start: () => this.start(intervalMs), stop: () => this.stop() };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.registry.doesExist('interval', this.name)) this.registry.deleteInterval(this.name);
    await this.running;
  }

  nudge(): void {
    if (this.stopped) return;
    this.pending = true;
    // A nudge from a request must not make the job's work that request's: it acts as the system.
    this.running ??= asSystem(() => this.loop()).finally(() => (this.running = undefined));
  }

  private async loop(): Promise<void> {
    let rest = 0;
    while (this.pending && !this.stopped) {
      this.pending = false;
      if (rest >= 1) await new Promise((resolve) => setTimeout(resolve, rest));
      else await yieldToIo();
      const started = performance.now();
      try {
        if (await this.work()) this.pending = true;
      } catch (error) {
        this.logger.error(`Run failed: ${(error as Error).stack ?? error}`);
        return;
      }
      rest = Math.min(1000, (performance.now() - started) * (1 / this.share - 1));
    }
  }
}
