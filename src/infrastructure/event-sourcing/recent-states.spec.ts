import { RecentStates } from './recent-states';

describe('RecentStates', () => {
  const decider = {};

  it('answers the state remembered for a stream and the decider that folded it', () => {
    const recent = new RecentStates();
    recent.remember('lead-1', decider, { status: 'created' }, 0);
    expect(recent.get('lead-1', decider)).toEqual({ state: { status: 'created' }, revision: 0 });
    expect(recent.get('lead-1', {})).toBeUndefined();
    expect(recent.get('lead-2', decider)).toBeUndefined();
  });

  it('keeps a later state when an earlier one comes back, and forgets a stream with no revision', () => {
    const recent = new RecentStates();
    recent.remember('lead-1', decider, 'later', 3);
    recent.remember('lead-1', decider, 'earlier', 2);
    expect(recent.get('lead-1', decider)?.state).toBe('later');
    recent.remember('lead-1', decider, 'none', null);
    expect(recent.get('lead-1', decider)).toBeUndefined();
  });

  it("keeps a campaign's slots through the thousands of calls and leads other campaigns write between two of its attempts", () => {
    const recent = new RecentStates();
    recent.remember('call_slots-1', decider, 'slots', 0);
    for (let i = 0; i < 4000; i++) {
      recent.remember(`call-${i}`, decider, 'call', 0);
      recent.remember(`lead-${i}`, decider, 'lead', 0);
    }
    expect(recent.get('call_slots-1', decider)?.state).toBe('slots');
  });

  it('drops the least recently used streams beyond the bytes it may hold, and keeps none larger than them all', () => {
    const recent = new RecentStates(100, 10_000);
    const weighing = (kb: number) => ({ variables: { note: 'x'.repeat(kb * 512) } });
    for (const stream of ['a', 'b', 'c', 'd']) recent.remember(stream, decider, weighing(3), 0);
    expect(['a', 'b', 'c', 'd'].map((stream) => recent.get(stream, decider) !== undefined)).toEqual([false, true, true, true]);
    recent.remember('e', decider, weighing(20), 0);
    expect(recent.get('e', decider)).toBeUndefined();
  });

  it('drops the least recently used stream beyond its capacity', () => {
    const recent = new RecentStates(2);
    recent.remember('a', decider, 'a', 0);
    recent.remember('b', decider, 'b', 0);
    recent.get('a', decider);
    recent.remember('c', decider, 'c', 0);
    expect(recent.get('b', decider)).toBeUndefined();
    expect(recent.get('a', decider)?.state).toBe('a');
    expect(recent.get('c', decider)?.state).toBe('c');
    recent.forget('c');
    expect(recent.get('c', decider)).toBeUndefined();
  });
});
