import { LRUCache } from 'lru-cache';
import { CallReportDay } from '../calls/call-report';
import { Counts } from '../shared/counts';
import { campaignReport } from './campaign-report';

interface Made {
  days: CallReportDay[];
  leads: Counts;
  /** The answer's JSON without its closing brace, `generated_at` left out. */
  json: string;
}

/**
 * The report's answer, written out once for the counters it is made from. The read store hands
 * back the same document objects while they are unchanged, so an answer is written again only
 * when a counter moved (or the store makes new objects at each read: then always).
 */
export class ReportAnswers {
  private readonly made = new LRUCache<string, Made>({ max: 500 });

  answer(campaignId: number, range: string, days: CallReportDay[], leads: Counts, now: Date): string {
    const key = `${campaignId}:${range}`;
    let made = this.made.get(key);
    if (!made || made.leads !== leads || made.days.length !== days.length || made.days.some((day, i) => day !== days[i])) {
      const { generated_at: _now, ...report } = campaignReport(campaignId, days, leads, now);
      made = { days, leads, json: JSON.stringify(report).slice(0, -1) };
      this.made.set(key, made);
    }
    return `${made.json},"generated_at":${JSON.stringify(now.toISOString())}}`;
  }
}
