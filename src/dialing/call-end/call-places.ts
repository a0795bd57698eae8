import { Injectable } from '@nestjs/common';
import { CallOutcomeRecorded } from '../../calls/call.events';
import { AppConfig } from '../../infrastructure/config/app-config';
import { runtimeCap } from '../../infrastructure/config/voice-runtime-config';
import { CallSlots } from '../call-slots';

/** A call that ended gives back its places: among its campaign's calls in flight, and its runtime's. */
@Injectable()
export class CallPlacesFreed {
  constructor(
    private readonly slots: CallSlots,
    private readonly config: AppConfig,
  ) {}

  async onCallEnded(data: CallOutcomeRecorded['data']): Promise<void> {
    if (data.campaign_id !== null) await this.slots.free(data.campaign_id, [data.call_id]);
    const cap = runtimeCap(this.config.runtimes);
    if (cap) await this.slots.freeOnRuntime(cap.provider, [data.call_id]);
  }
}
