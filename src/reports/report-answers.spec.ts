import { CallReportDay } from '../calls/call-report';
import { campaignReport } from './campaign-report';
import { ReportAnswers } from './report-answers';

const day = (date: string, calls: number): CallReportDay => ({
  id: `7:${date}`,
  user_id: 1,
  campaign_id: 7,
  day: date,
  counts: { calls, ended: calls, reached: 1, 's:completed': calls, duration: 30 * calls },
  hours: { '09': { calls, reached: 1 } },
});

describe('the report answer', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 4, 4, 10, minute));

  it('given the same counter documents, when asked again: the answer written once, only its time new', () => {
    const answers = new ReportAnswers();
    const days = [day('2026-05-01', 3), day('2026-05-02', 4)];
    const leads = { total: 5, 's:completed': 2 };
    const first = answers.answer(7, ':', days, leads, at(0));
    expect(JSON.parse(first)).toEqual(campaignReport(7, days, leads, at(0)));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const again = JSON.parse(answers.answer(7, ':', [...days], leads, at(1)));
      expect(again).toEqual(campaignReport(7, days, leads, at(1)));
      // Only the time was written out.
      expect(stringify.mock.calls.map(([value]) => value)).toEqual([at(1).toISOString()]);
    } finally {
      stringify.mockRestore();
    }
  });

  it('given a counter moved (a new document), or another range or campaign: the answer made again', () => {
    const answers = new ReportAnswers();
    const days = [day('2026-05-01', 3)];
    const leads = { total: 5 };
    answers.answer(7, ':', days, leads, at(0));
    const moved = [day('2026-05-01', 4)];
    expect(JSON.parse(answers.answer(7, ':', moved, leads, at(1))).calls.total).toBe(4);
    expect(JSON.parse(answers.answer(7, ':', [...moved, day('2026-05-02', 1)], leads, at(1))).calls.total).toBe(5);
    expect(JSON.parse(answers.answer(7, ':', moved, { total: 6 }, at(1))).leads.total).toBe(6);
    expect(JSON.parse(answers.answer(7, '2026-05-02:', [], leads, at(1))).calls.total).toBe(0);
    expect(JSON.parse(answers.answer(8, ':', [], leads, at(1))).campaign_id).toBe(8);
  });
});
