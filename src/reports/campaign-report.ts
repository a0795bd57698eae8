import { CALL_STATUSES } from '../calls/call.events';
import { CallReportDay, OUTCOME, outcomeOf } from '../calls/call-report';
import { LEAD_STATUSES } from '../leads/lead.events';
import { Counts } from '../shared/counts';

/** Values shown per post-call field. */
const TOP_VALUES = 20;

const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
const ratio = (part: number, whole: number) => (whole === 0 ? 0 : round(part / whole, 4));

/**
 * docs/reports.md's report of one campaign, from the counters its calls' days (oldest first) and its
 * leads keep: added up here, never counted from the calls or the events.
 */
export function campaignReport(campaignId: number, days: CallReportDay[], leads: Counts, now: Date) {
  const calls: Counts = {};
  for (const day of days) for (const key in day.counts) calls[key] = (calls[key] ?? 0) + day.counts[key];
  const figure = (key: string) => calls[key] ?? 0;
  const ended = figure('ended');
  return {
    campaign_id: campaignId,
    leads: {
      total: leads.total ?? 0,
      by_status: Object.fromEntries(LEAD_STATUSES.map((status) => [status, leads[`s:${status}`] ?? 0])),
    },
    calls: {
      total: figure('calls'),
      by_status: Object.fromEntries(CALL_STATUSES.map((status) => [status, figure(`s:${status}`)])),
      reached: figure('reached'),
      answer_rate: ratio(figure('reached'), ended),
      machine_rate: ratio(figure('machine'), ended),
      average_duration_seconds: ended === 0 ? 0 : round(figure('duration') / ended, 2),
      total_duration_seconds: figure('duration'),
      total_cost: round(figure('cost'), 4),
    },
    completed_at_attempt: Object.fromEntries(
      Object.entries(leads)
        .filter(([key]) => key.startsWith('a:'))
        .map(([key, n]) => [key.slice(2), n] as const)
        .sort(([a], [b]) => Number(a) - Number(b)),
    ),
    by_hour: days.flatMap(byHour),
    outcomes: outcomes(calls),
    generated_at: now.toISOString(),
  };
}

/** The day's hours (`hours['09']`) that had calls, in order. */
function byHour(day: CallReportDay): Array<{ hour: string; calls: number; reached: number }> {
  const hours = [];
  for (const hour of HOURS) {
    const counts = day.hours[hour];
    if (counts) hours.push({ hour: `${day.day}T${hour}:00:00Z`, calls: counts.calls ?? 0, reached: counts.reached ?? 0 });
  }
  return hours;
}

/** Each post-call field's most frequent values, most frequent first. */
function outcomes(calls: Counts): Record<string, Record<string, number>> {
  const byField = new Map<string, Array<[string, number]>>();
  for (const [key, n] of Object.entries(calls)) {
    if (!key.startsWith(OUTCOME)) continue;
    const { field, value } = outcomeOf(key);
    byField.set(field, [...(byField.get(field) ?? []), [value, n]]);
  }
  return Object.fromEntries(
    [...byField.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([field, values]) => [field, Object.fromEntries(values.sort(([va, a], [vb, b]) => b - a || va.localeCompare(vb)).slice(0, TOP_VALUES))]),
  );
}
