import { RecentCall, breakerTrips, dialsLeftThisMinute } from './campaign-limits';

const at = (second: number) => `2026-06-01 12:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}`;
const call = (status: RecentCall['status'], second: number): RecentCall => ({ status, created_at: at(second) });
const SINCE = Date.parse('2026-06-01T12:00:00Z');
const notDialed = (second: number): RecentCall => ({ ...call('failed', second), not_dialed: 'do-not-call' });

describe('campaign limits', () => {
  describe('the failure breaker', () => {
    const breaker = { window: 4, max_failure_ratio: 0.5 };

    it('given more than its share failed among the last finished calls, then it trips with their number', () => {
      const calls = [call('failed', 50), call('failed', 40), call('completed', 30), call('failed', 20), call('completed', 10)];
      expect(breakerTrips(breaker, calls, SINCE)).toBe(3);
    });

    it('given exactly its share, or fewer finished calls than its window, then it holds', () => {
      expect(breakerTrips(breaker, [call('failed', 40), call('failed', 30), call('busy', 20), call('completed', 10)], SINCE)).toBeNull();
      expect(breakerTrips(breaker, [call('failed', 30), call('failed', 20), call('failed', 10)], SINCE)).toBeNull();
    });

    it('given calls still in flight or placed before the last start, then they are not counted', () => {
      const calls = [call('ringing', 60), call('failed', 50), call('failed', 40), call('failed', 30), call('failed', -30)];
      expect(
        breakerTrips(
          breaker,
          calls.map((c, i) => (i === 4 ? { ...c, created_at: '2026-06-01 11:59:30' } : c)),
          SINCE,
        ),
      ).toBeNull();
    });

    it('given calls never dialed (listed after their claim), then they are not counted as failed nor fill the window', () => {
      const calls = [notDialed(60), call('failed', 50), notDialed(45), call('failed', 40), call('completed', 30), call('completed', 20)];
      expect(breakerTrips(breaker, calls, SINCE)).toBeNull();
      expect(breakerTrips(breaker, [...calls.slice(0, 4), call('failed', 30), call('completed', 20)], SINCE)).toBe(3);
    });
  });

  describe('pacing', () => {
    it('given calls placed in the last rolling minute, then only the rest of the allowance may be placed', () => {
      const now = Date.parse('2026-06-01T12:02:00Z');
      const calls = [call('completed', 110), call('ringing', 70), call('completed', 60), call('completed', 30)];
      expect(dialsLeftThisMinute(5, calls, now)).toBe(3);
      expect(dialsLeftThisMinute(2, calls, now)).toBe(0);
    });

    it('given a call never dialed in the last minute, then it takes nothing of the allowance', () => {
      const now = Date.parse('2026-06-01T12:02:00Z');
      expect(dialsLeftThisMinute(2, [notDialed(110), call('ringing', 100)], now)).toBe(1);
    });
  });
});
