import { callSpec } from '../testing/call.fixture';
import { AT, NEXT_BATCH, projectionSpec } from '../testing/projection-spec';
import { OUTCOME_VALUES_PER_DAY } from './call-report';
import { CallsProjection } from './calls.projection';

const report = projectionSpec(
  (store) => new CallsProjection(store),
  (p) => p.report.days,
);
const spec = (call_id: number, campaign_id: number | null = 3) => ({
  type: 'CallInitiated',
  data: { call_id, ...callSpec({ user_id: 1, assistant_id: 2, campaign_id, outcome_fields: ['booked', 'topic'], variables: { name: 'Ann' } }) },
});
const ended = (call_id: number, status: string, details: object, from = 'initiated') => ({
  type: 'CallOutcomeRecorded',
  data: { call_id, user_id: 1, campaign_id: 3, lead_id: null, from, status, reached: status === 'completed', details },
});
const DAY = AT.slice(0, 10);
const HOUR = AT.slice(11, 13);
const bucket = (counts: Record<string, number>) => ({
  id: `3:${DAY}`,
  user_id: 1,
  campaign_id: 3,
  day: DAY,
  counts,
  hours: { [HOUR]: { calls: counts.calls, ...(counts.reached ? { reached: counts.reached } : {}) } },
});

describe("the campaign report's counters (docs/reports.md)", () => {
  it('counts each call once in its day and hour, moving it from status to status as it goes', () =>
    report
      .given(
        spec(1),
        spec(2),
        ended(1, 'ringing', {}),
        ended(1, 'completed', { answered_by: 'human', duration: 40, total_cost: 0.07, variables: { booked: true, topic: 'billing', name: 'Bo' } }, 'ringing'),
        ended(2, 'completed', { answered_by: 'machine', duration: 5 }),
        spec(9, null),
      )
      .then([
        bucket({
          calls: 2,
          's:completed': 2,
          ended: 2,
          reached: 1,
          machine: 1,
          duration: 45,
          cost: 0.07,
          'o:booked\u001ftrue': 1,
          'o:topic\u001fbilling': 1,
        }),
      ]));

  it('moves an outcome when an analysis changes it, and counts only string and boolean values of the fields named', () =>
    report
      .given(spec(1), ended(1, 'completed', { answered_by: 'human', variables: { booked: false, topic: 42 } }), {
        type: 'CallAnalyzed',
        data: { call_id: 1, user_id: 1, campaign_id: 3, lead_id: null, variables: { booked: true, topic: 'x'.repeat(101) } },
      })
      .then([bucket({ calls: 1, 's:completed': 1, ended: 1, reached: 1, 'o:booked\u001ftrue': 1 })]));

  it('keeps each hour of the day apart, those before ten and those after, across batches', () => {
    const at = (hour: string) => `${DAY}T${hour}:15:00.000Z`;
    return report
      .given(
        { ...spec(1), occurredAt: at('09') },
        NEXT_BATCH,
        { ...spec(2), occurredAt: at('14') },
        { ...ended(2, 'completed', { answered_by: 'human' }), occurredAt: at('14') },
        NEXT_BATCH,
        { ...spec(3), occurredAt: at('00') },
        { ...spec(4), occurredAt: at('23') },
      )
      .then([
        {
          ...bucket({ calls: 4, 's:initiated': 3, 's:completed': 1, ended: 1, reached: 1 }),
          hours: { '00': { calls: 1 }, '09': { calls: 1 }, '14': { calls: 1, reached: 1 }, '23': { calls: 1 } },
        },
      ]);
  });

  it(`counts at most ${OUTCOME_VALUES_PER_DAY} values of a field in a day`, () => {
    const calls = Array.from({ length: OUTCOME_VALUES_PER_DAY + 2 }, (_, i) => [
      spec(i + 1),
      ended(i + 1, 'completed', { answered_by: 'human', variables: { topic: `topic ${i}` } }),
    ]).flat();
    const counts: Record<string, number> = { calls: 52, 's:completed': 52, ended: 52, reached: 52 };
    for (let i = 0; i < OUTCOME_VALUES_PER_DAY; i++) counts[`o:topic\u001ftopic ${i}`] = 1;
    return report.given(...calls).then([bucket(counts)]);
  });
});
