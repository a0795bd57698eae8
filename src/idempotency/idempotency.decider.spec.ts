import { DomainError } from '../shared/domain-error';
import { deciderSpec } from '../testing/decider-spec';
import { fold } from '../shared/event-sourcing/decider';
import { IN_PROGRESS, IdempotencyEvent, KEY_REUSED, idempotencyDecider } from './idempotency.decider';

const { given } = deciderSpec(idempotencyDecider);
const t0 = new Date('2025-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const started = (fingerprint = 'a', at = t0): IdempotencyEvent => ({ type: 'IdempotentRequestStarted', data: { fingerprint, at: at.toISOString() } });
const answered = (at = t0): IdempotencyEvent => ({ type: 'IdempotentRequestAnswered', data: { status: 201, body: { id: 1 }, at: at.toISOString() } });
const refusedWith = (message: string, kind: string) => (error: unknown) => error instanceof DomainError && error.message === message && error.kind === kind;

describe('idempotency decider', () => {
  it('starts a request under a new key', () => given([]).when({ type: 'Begin', fingerprint: 'a' }, t0).then([started()]));

  it('repeats an answer (decides nothing) for the same body within 24 hours, and starts again after', () => {
    given([started(), answered()]).when({ type: 'Begin', fingerprint: 'a' }, later(86_399_000)).then([]);
    given([started(), answered()])
      .when({ type: 'Begin', fingerprint: 'a' }, later(86_400_000))
      .then([started('a', later(86_400_000))]);
  });

  it('refuses another body under the key, and the same body while it runs', () => {
    given([started(), answered()]).when({ type: 'Begin', fingerprint: 'b' }, later(1000)).thenThrows(refusedWith(KEY_REUSED, 'validation'));
    given([started()]).when({ type: 'Begin', fingerprint: 'a' }, later(1000)).thenThrows(refusedWith(IN_PROGRESS, 'conflict'));
    given([started()]).when({ type: 'Begin', fingerprint: 'b' }, later(1000)).thenThrows(refusedWith(KEY_REUSED, 'validation'));
  });

  it('frees a key whose request was abandoned or died with its process', () => {
    given([started(), { type: 'IdempotentRequestAbandoned', data: { at: t0.toISOString() } }])
      .when({ type: 'Begin', fingerprint: 'b' }, later(1))
      .then([started('b', later(1))]);
    given([started()])
      .when({ type: 'Begin', fingerprint: 'a' }, later(120_000))
      .then([started('a', later(120_000))]);
  });

  it('answers or abandons only a running request', () => {
    given([started()])
      .when({ type: 'Answer', status: 201, body: { id: 1 } }, t0)
      .then([answered()]);
    given([started(), answered()]).when({ type: 'Answer', status: 201, body: {} }, t0).then([]);
    given([]).when({ type: 'Abandon' }, t0).then([]);
  });

  it('keeps a streamed body’s hash with its answer, for a repeat to be told apart by', () => {
    const withHash: IdempotencyEvent = { type: 'IdempotentRequestAnswered', data: { status: 202, body: { id: 1 }, at: t0.toISOString(), body_hash: 'h' } };
    given([started()])
      .when({ type: 'Answer', status: 202, body: { id: 1 }, bodyHash: 'h' }, t0)
      .then([withHash]);
    expect(fold(idempotencyDecider, [started(), withHash])).toMatchObject({ status: 'answered', bodyHash: 'h' });
    expect(fold(idempotencyDecider, [started(), answered()])).toMatchObject({ status: 'answered', bodyHash: null });
  });

  it('deems a request whose body still arrives running until two minutes after it last progressed', () => {
    const progressed = (at: Date): IdempotencyEvent => ({ type: 'IdempotentRequestProgressed', data: { at: at.toISOString() } });
    given([started()])
      .when({ type: 'Progress' }, later(100_000))
      .then([progressed(later(100_000))]);
    given([started(), progressed(later(100_000))])
      .when({ type: 'Begin', fingerprint: 'a' }, later(219_000))
      .thenThrows(refusedWith(IN_PROGRESS, 'conflict'));
    given([started(), progressed(later(100_000))])
      .when({ type: 'Begin', fingerprint: 'a' }, later(220_000))
      .then([started('a', later(220_000))]);
    given([started(), answered()]).when({ type: 'Progress' }, later(1000)).then([]);
    given([]).when({ type: 'Progress' }, t0).then([]);
  });

  it('keeps the id a run chose for what it creates: a retry of the same request after a failure or a death goes on with it', () => {
    const chosen: IdempotencyEvent = { type: 'IdempotentResourceChosen', data: { resource_id: 42 } };
    given([started()]).when({ type: 'Choose', resourceId: 42 }, t0).then([chosen]);
    given([started(), chosen]).when({ type: 'Choose', resourceId: 43 }, t0).then([]);
    const abandoned: IdempotencyEvent = { type: 'IdempotentRequestAbandoned', data: { at: t0.toISOString() } };
    given([started(), chosen, abandoned])
      .when({ type: 'Begin', fingerprint: 'a' }, later(1))
      .then([{ type: 'IdempotentRequestStarted', data: { fingerprint: 'a', at: later(1).toISOString(), resource_id: 42 } }]);
    given([started(), chosen])
      .when({ type: 'Begin', fingerprint: 'a' }, later(120_000))
      .then([{ type: 'IdempotentRequestStarted', data: { fingerprint: 'a', at: later(120_000).toISOString(), resource_id: 42 } }]);
    // Another request under the freed key makes its own.
    given([started(), chosen, abandoned])
      .when({ type: 'Begin', fingerprint: 'b' }, later(1))
      .then([started('b', later(1))]);
    expect(fold(idempotencyDecider, [started(), chosen, abandoned, started('a', later(1))])).toMatchObject({ status: 'running', resourceId: null });
  });
});
