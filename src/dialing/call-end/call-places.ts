import { Injectable } from '@nestjs/common';
import { CallOutcomeRecorded } from '../../calls/call.events';
import { RuntimeCapacity } from '../../voice-runtimes/runtime-capacity';
import { CallSlots } from '../call-slots';

/** A call that ended gives back its places: among its campaign's calls in flight, and its runtime's. */
@Injectable()
export class CallPlacesFreed {
  constructor(
    private readonly slots: CallSlots,
    private readonly runtime: RuntimeCapacity,
  ) {}

  async onCallEnded(data: CallOutcomeRecorded['data']): Promise<void> {
    if (data.campaign_id !== null) await this.slots.free(data.campaign_id, [data.call_id]);
    const cap = this.runtime.cap;
    if (cap) await this.slots.freeOnRuntime(cap.provider, [data.call_id]);
  }
}
