import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CallsQueries } from '../calls/calls.queries';
import { Sweep } from '../infrastructure/background/sweep';
import { WorkLeases } from '../infrastructure/leases/work-leases';
import { DialingSettings } from './dialing-settings';
import { BACKGROUND_WORK } from '../infrastructure/reactors/reactor';
import { Clock } from '../shared/clock';
import { DialQueue } from './dial-queue';

const PAGE = 100;

/**
 * docs/api.md, "a crash before the dial costs nothing": a call whose dial was not confirmed
 * `resendAfterSeconds` after it was claimed or last sent (its process died before or during
 * the dial) is queued to be sent again under the same call id, which providers deduplicate on.
 * Each send is claimed by an append with the expected revision (see CallPlacer), so one
 * process sends it, and never while another send of it may still be on the wire.
 */
@Injectable()
export class UnsentDialSweeper extends Sweep {
  constructor(
    private readonly calls: CallsQueries,
    private readonly dials: DialQueue,
    private readonly clock: Clock,
    private readonly settings: DialingSettings,
    registry: SchedulerRegistry,
    @Inject(BACKGROUND_WORK) background: boolean,
    leases: WorkLeases,
  ) {
    super('UnsentDialSweeper', registry, background, settings.intervalMs, PAGE, leases);
  }

  /** Queues a page of dials overdue for confirmation, but those already waiting or on the wire here; answers how many it queued. */
  async sweepOnce(): Promise<number> {
    const before = this.clock.now().getTime() - this.settings.resendAfterSeconds * 1000;
    const due = await this.calls.unsentBefore(before, PAGE);
    return due.filter((call) => this.dials.add(call.id, call)).length;
  }
}
