import { SimulatedOutcome } from './simulated-settings';
import { drawOutcome, seededRandom } from './simulated-dialer';

const odds = (o: Partial<Record<SimulatedOutcome, number>>) => ({ human: 0, machine: 0, busy: 0, 'no-answer': 0, failed: 0, silence: 0, ...o });

describe('simulated dialer draws', () => {
  it('draws the same outcomes for the same seed, other ones for another seed', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 50 }, () => drawOutcome(odds({ human: 1, busy: 1, 'no-answer': 1 }), random));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('follows the configured odds', () => {
    const random = seededRandom(1);
    const counts: Record<string, number> = {};
    for (let i = 0; i < 10_000; i++) {
      const outcome = drawOutcome(odds({ human: 3, machine: 1 }), random);
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['human', 'machine']);
    expect(counts.human / 10_000).toBeCloseTo(0.75, 1);
  });

  it('never draws an outcome without weight', () => {
    const random = seededRandom(9);
    for (let i = 0; i < 1000; i++) expect(drawOutcome(odds({ failed: 1 }), random)).toBe('failed');
  });
});
