import { isTerminal } from '../calls/call-status';
import { CallStatus, NotDialedReason } from '../calls/call.events';
import { FailureBreaker } from '../campaigns/campaign.events';

/** A call as the limits read it: its status, when it was claimed (`YYYY-MM-DD HH:MM:SS`, UTC), and whether it was never dialed. */
export interface RecentCall {
  status: CallStatus;
  created_at: string;
  not_dialed?: NotDialedReason | null;
}

const placedAt = (call: RecentCall) => Date.parse(`${call.created_at.replace(' ', 'T')}Z`);
/** A call never dialed (its number listed after the claim) is neither a dial nor a failure of one. */
const dialed = (call: RecentCall) => !call.not_dialed;

/**
 * docs/dialing.md's breaker: of the last `window` calls finished since `since`, newest first, the
 * number that failed when it is above the breaker's share; null while it holds (or fewer finished).
 */
export function breakerTrips(breaker: FailureBreaker, newestFirst: readonly RecentCall[], since: number): number | null {
  const finished = newestFirst.filter((c) => dialed(c) && isTerminal(c.status) && placedAt(c) >= since).slice(0, breaker.window);
  if (finished.length < breaker.window) return null;
  const failed = finished.filter((c) => c.status === 'failed').length;
  return failed / breaker.window > breaker.max_failure_ratio ? failed : null;
}

/** docs/dialing.md's pacing: how many more calls may be placed now, of `perMinute` in any rolling minute. */
export function dialsLeftThisMinute(perMinute: number, newestFirst: readonly RecentCall[], now: number): number {
  const placed = newestFirst.filter((c) => dialed(c) && placedAt(c) > now - 60_000).length;
  return Math.max(0, perMinute - placed);
}
