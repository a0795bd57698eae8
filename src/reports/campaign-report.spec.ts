import { campaignReport } from './campaign-report';

const NOW = new Date('2025-03-01T12:00:00Z');
const day = (d: string, counts: Record<string, number>, hours: Record<string, { calls?: number; reached?: number }>) => ({
  id: `1:${d}`,
  user_id: 1,
  campaign_id: 1,
  day: d,
  counts,
  hours,
});

describe('campaign report (docs/reports.md)', () => {
  it('adds the days up into rates rounded to four decimals, each post-call field’s values most frequent first', () => {
    const report = campaignReport(
      1,
      [
        day('2025-02-28', { calls: 1, 's:in-progress': 1 }, { '23': { calls: 1 } }),
        day(
          '2025-03-01',
          { calls: 4, 's:completed': 3, 's:busy': 1, ended: 4, reached: 2, machine: 1, duration: 100, cost: 0.15, 'o:topic\u001fa': 2, 'o:topic\u001fb': 1 },
          { '11': { calls: 1, reached: 1 }, '10': { calls: 3, reached: 1 } },
        ),
      ],
      { total: 4, 's:completed': 2, 's:created': 2, 'a:1': 1, 'a:3': 1 },
      NOW,
    );
    expect(report).toEqual({
      campaign_id: 1,
      leads: { total: 4, by_status: { created: 2, completed: 2, 'reached-max-retries': 0 } },
      calls: {
        total: 5,
        by_status: expect.objectContaining({ completed: 3, busy: 1, 'in-progress': 1, failed: 0 }),
        reached: 2,
        answer_rate: 0.5,
        machine_rate: 0.25,
        average_duration_seconds: 25,
        total_duration_seconds: 100,
        total_cost: 0.15,
      },
      completed_at_attempt: { '1': 1, '3': 1 },
      by_hour: [
        { hour: '2025-02-28T23:00:00Z', calls: 1, reached: 0 },
        { hour: '2025-03-01T10:00:00Z', calls: 3, reached: 1 },
        { hour: '2025-03-01T11:00:00Z', calls: 1, reached: 1 },
      ],
      outcomes: { topic: { a: 2, b: 1 } },
      generated_at: NOW.toISOString(),
    });
    expect(Object.keys(report.outcomes.topic)).toEqual(['a', 'b']);
  });

  it('answers zeros, not NaN, for a campaign without calls', () => {
    const report = campaignReport(2, [], {}, NOW);
    expect(report.calls).toMatchObject({ total: 0, reached: 0, answer_rate: 0, machine_rate: 0, average_duration_seconds: 0, total_cost: 0 });
    expect([report.leads.total, report.by_hour, report.outcomes, report.completed_at_attempt]).toEqual([0, [], {}, {}]);
  });
});
