import { CallDetails, CallStatus } from '../calls/call.events';

/** A change a runtime's message makes to a call: its new status and what it tells of it. */
export interface RuntimeReport {
  status: CallStatus;
  details: CallDetails;
  /** Why it failed, for `failure_reason`. */
  reason?: string;
  /** Ended for the runtime's concurrency limit: no attempt used (docs/real-calls.md). */
  atCapacity?: boolean;
}
