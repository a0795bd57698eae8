import { fold } from '../shared/event-sourcing/decider';
import { deciderSpec } from '../testing/decider-spec';
import { ATTEMPT_LEASE_MS, ATTEMPT_TAKEN, STILL_PENDING, AttemptResult, WebhookCommand, webhookDecider } from './webhook.decider';
import { WebhookEvent } from './webhook.events';

const T0 = new Date('2025-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const DELAYS = [1, 5, 30, 120];
const request: WebhookCommand = {
  type: 'RequestWebhook',
  id: '7-ended',
  callId: 7,
  organisationId: 2,
  campaignId: 3,
  event: 'call.ended',
  url: 'https://hooks.example.com',
  payload: { event: 'call.ended' },
};
const start: WebhookCommand = { type: 'StartWebhookAttempt', id: '7-ended' };
const finish = (attempt: number, result: Partial<AttemptResult>): WebhookCommand => ({
  type: 'FinishWebhookAttempt',
  id: '7-ended',
  attempt,
  result: { status_code: null, body: null, error: null, retryable: false, ...result },
  retryDelaysSeconds: DELAYS,
});

const { given } = deciderSpec(webhookDecider, T0);

/** Runs commands in turn at the given instants and returns every event. */
function run(steps: Array<[WebhookCommand, number]>): WebhookEvent[] {
  let events: WebhookEvent[] = [];
  for (const [command, ms] of steps) events = [...events, ...given(events).when(command, at(ms)).decided()];
  return events;
}
const last = (events: WebhookEvent[]) => events[events.length - 1];

describe('webhook delivery decider', () => {
  it('requests once: a second request for the same call and kind changes nothing', () => {
    const events = run([
      [request, 0],
      [request, 0],
    ]);
    expect(events.map((e) => e.type)).toEqual(['WebhookRequested']);
  });

  it('delivers on a 2xx answer and is done', () => {
    const events = run([
      [request, 0],
      [start, 0],
      [finish(1, { status_code: 204 }), 10],
    ]);
    expect(last(events).data).toMatchObject({ attempt: 1, outcome: 'delivered', status_code: 204, next_attempt_at: null });
    expect(() =>
      run([
        [request, 0],
        [start, 0],
        [finish(1, { status_code: 204 }), 10],
        [start, 99_999],
      ]),
    ).toThrow(ATTEMPT_TAKEN);
  });

  it('retries network errors, timeouts and 5xx after the configured delays, and gives up after 5 attempts', () => {
    const steps: Array<[WebhookCommand, number]> = [[request, 0]];
    let now = 0;
    for (let attempt = 1; attempt <= 5; attempt++) {
      steps.push([start, now], [finish(attempt, { status_code: 503, retryable: true }), now]);
      now += (DELAYS[attempt - 1] ?? 0) * 1000;
    }
    const finished = run(steps).filter((e) => e.type === 'WebhookAttemptFinished');
    expect(
      finished.map((e) => [e.data.attempt, (e.data as { outcome: string }).outcome, (e.data as { next_attempt_at: string | null }).next_attempt_at]),
    ).toEqual([
      [1, 'retrying', at(1_000).toISOString()],
      [2, 'retrying', at(1_000 + 5_000).toISOString()],
      [3, 'retrying', at(6_000 + 30_000).toISOString()],
      [4, 'retrying', at(36_000 + 120_000).toISOString()],
      [5, 'failed', null],
    ]);
  });

  it('does not retry an answer that is not worth it (a 404, a refused target)', () => {
    expect(
      last(
        run([
          [request, 0],
          [start, 0],
          [finish(1, { status_code: 404, retryable: false }), 0],
        ]),
      ).data,
    ).toMatchObject({ outcome: 'failed', next_attempt_at: null });
  });

  it("refuses an attempt before it is due or while another sender holds it, and gives a dead sender's attempt back after the lease", () => {
    const retrying = [
      [request, 0],
      [start, 0],
      [finish(1, { error: 'ECONNREFUSED', retryable: true }), 0],
    ] as Array<[WebhookCommand, number]>;
    expect(() => run([...retrying, [start, 999]])).toThrow(ATTEMPT_TAKEN);
    expect(() => run([...retrying, [start, 1_000], [start, 1_000]])).toThrow(ATTEMPT_TAKEN);
    const taken = run([...retrying, [start, 1_000], [start, 1_000 + ATTEMPT_LEASE_MS]]);
    expect(last(taken).data).toMatchObject({ attempt: 3 });
  });

  it('ignores a finish for an attempt that is not the current one', () => {
    const events = run([
      [request, 0],
      [start, 0],
      [start, ATTEMPT_LEASE_MS],
    ]);
    expect(webhookDecider.decide(finish(1, { status_code: 200 }), fold(webhookDecider, events), at(ATTEMPT_LEASE_MS))).toEqual([]);
  });

  describe('redelivery', () => {
    const redeliver = (organisationId = 2): WebhookCommand => ({ type: 'RedeliverWebhook', id: '7-ended', organisationId });
    const failedOnce: Array<[WebhookCommand, number]> = [
      [request, 0],
      [start, 0],
      [finish(1, { status_code: 404 }), 10],
    ];

    it('starts a new series of attempts for a delivery that ended, due at once, with the whole retry budget again', () => {
      const events = run([...failedOnce, [redeliver(), 1_000]]);
      expect(last(events)).toEqual({
        type: 'WebhookRedeliveryRequested',
        data: { delivery_id: '7-ended', call_id: 7, user_id: 2, campaign_id: 3, event: 'call.ended', from_attempt: 1, due_at: at(1_000).toISOString() },
      });
      const steps: Array<[WebhookCommand, number]> = [...failedOnce, [redeliver(), 1_000]];
      for (let attempt = 2; attempt <= 6; attempt++)
        steps.push([start, 999_999 * attempt], [finish(attempt, { status_code: 503, retryable: true }), 999_999 * attempt]);
      const outcomes = run(steps)
        .filter((e) => e.type === 'WebhookAttemptFinished')
        .map((e) => [e.data.attempt, (e.data as { outcome: string }).outcome]);
      expect(outcomes).toEqual([
        [1, 'failed'],
        [2, 'retrying'],
        [3, 'retrying'],
        [4, 'retrying'],
        [5, 'retrying'],
        [6, 'failed'],
      ]);
    });

    it("refuses while attempts are still due, and another user's delivery as missing", () => {
      const pending = run([[request, 0]]);
      given(pending).when(redeliver(), at(5)).thenThrows(STILL_PENDING);
      given(run(failedOnce)).when(redeliver(9), at(20)).thenThrows('Webhook delivery not found');
      given([]).when(redeliver(), at(20)).thenThrows('Webhook delivery not found');
    });
  });
});
