import { Injectable, OnModuleInit } from '@nestjs/common';
import { Upcasters } from '../infrastructure/event-sourcing/upcasters';
import { isReached } from './call-status';

/**
 * CallOutcomeRecorded v1 had no `reached`: it is derived from the event's own status and
 * `answered_by`. (v2 also weighs an `answered_by` reported by an earlier event of the
 * call, which a lone v1 event cannot see.)
 */
export const callOutcomeV1toV2 = (data: { status: string; details?: { answered_by?: string } }) => ({
  ...data,
  reached: isReached(data.status as never, data.details?.answered_by as never),
});

@Injectable()
export class CallUpcasters implements OnModuleInit {
  constructor(private readonly upcasters: Upcasters) {}

  onModuleInit(): void {
    this.upcasters.register('CallOutcomeRecorded', 1, callOutcomeV1toV2);
  }
}
