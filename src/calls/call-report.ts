import { Collection, DocumentStore } from '../shared/ports/document-store.port';
import { Counts, applied, difference, isEmpty } from '../shared/counts';
import { isReached, isTerminal } from './call-status';
import { AnsweredBy, CallStatus } from './call.events';

/** What the counters read of a call document. */
export interface CountedCall {
  user_id: number;
  campaign_id: number | null;
  created_at: string;
  status: CallStatus;
  answered_by: AnsweredBy;
  duration: number;
  total_cost: number;
  variables: Record<string, unknown>;
  outcome_fields?: string[];
}

/**
 * docs/reports.md: what one campaign's calls created in one UTC day add up to, and their calls and
 * reached by hour of that day (`hours['09']`). A report's dates are whole days: it reads one
 * document a day of its range.
 */
export interface CallReportDay {
  id: string;
  user_id: number;
  campaign_id: number;
  /** `YYYY-MM-DD` */
  day: string;
  counts: Counts;
  hours: Record<string, { calls?: number; reached?: number }>;
}

/** At most this many values of one post-call field are counted per day (free text has no top values). */
export const OUTCOME_VALUES_PER_DAY = 50;
/** Longer strings are not counted as outcome values. */
const OUTCOME_MAX_LENGTH = 100;

export const OUTCOME = 'o:';
const outcomeKey = (field: string, value: string) => `${OUTCOME}${field}\u001f${value}`;
export const outcomeOf = (key: string) => {
  const [field, value] = key.slice(OUTCOME.length).split('\u001f');
  return { field, value };
};

/** What one call adds to its campaign's hour. */
export function callCounts(call: CountedCall): Counts {
  const counts: Counts = { calls: 1, [`s:${call.status}`]: 1 };
  if (!isTerminal(call.status)) return counts;
  counts.ended = 1;
  if (isReached(call.status, call.answered_by)) counts.reached = 1;
  if (call.answered_by === 'machine') counts.machine = 1;
  if (call.duration) counts.duration = call.duration;
  if (call.total_cost) counts.cost = call.total_cost;
  for (const field of call.outcome_fields ?? []) {
    const value = call.variables?.[field];
    if (typeof value === 'boolean' || (typeof value === 'string' && value.length > 0 && value.length <= OUTCOME_MAX_LENGTH))
      counts[outcomeKey(field, String(value))] = 1;
  }
  return counts;
}

/**
 * `hours` with `hour` set to `counts`. Copied key by key, not spread: hours `10` to `23` are
 * array indexes to V8, and spreading an object that has them took its slow path, five times
 * the copy (bench/README.md).
 */
function withHour(hours: CallReportDay['hours'], hour: string, counts: { calls?: number; reached?: number }): CallReportDay['hours'] {
  const copy: CallReportDay['hours'] = {};
  for (const key of Object.keys(hours)) copy[key] = hours[key];
  copy[hour] = counts;
  return copy;
}

/** A new value of a field is counted while the day has fewer than the cap. */
function admit(key: string, counts: Counts): boolean {
  if (!key.startsWith(OUTCOME)) return true;
  const field = key.slice(0, key.indexOf('\u001f') + 1);
  let values = 0;
  for (const other in counts) if (other.startsWith(field)) values++;
  return values < OUTCOME_VALUES_PER_DAY;
}

/**
 * The calls projection's counters of docs/reports.md's report: each write of a campaign's call
 * moves its day's counts (and its hour's calls and reached) by the difference it makes, at the
 * event's position (so an event applied again changes nothing). A report adds days up, never
 * reading a call. A call's day and hour are those of its `created_at` (`YYYY-MM-DD HH:MM:SS`, UTC).
 */
export class CallReportCounters {
  readonly days: Collection<CallReportDay>;

  constructor(store: DocumentStore) {
    this.days = store.collection<CallReportDay>('call_report', { indexes: [{ fields: ['campaign_id', 'day'] }] });
  }

  async move(before: CountedCall | null, after: CountedCall, position: number): Promise<void> {
    if (after.campaign_id === null) return;
    const change = difference(before ? callCounts(before) : {}, callCounts(after));
    if (isEmpty(change)) return;
    const day = after.created_at.slice(0, 10);
    const id = `${after.campaign_id}:${day}`;
    const stored = (await this.days.get(id)) ?? { id, user_id: after.user_id, campaign_id: after.campaign_id, day, counts: {}, hours: {} };
    const hour = after.created_at.slice(11, 13);
    const hours =
      change.calls || change.reached
        ? withHour(stored.hours, hour, applied(stored.hours[hour] ?? {}, { calls: change.calls ?? 0, reached: change.reached ?? 0 }))
        : stored.hours;
    await this.days.upsert(id, { ...stored, counts: applied(stored.counts, change, admit), hours }, position);
  }
}
