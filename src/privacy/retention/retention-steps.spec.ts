import { NthMadeSince, retentionSteps } from './retention-steps';

const BUCKET = 10;

/** A count over values made at these instants, as a read model's index answers it. */
const madeAt =
  (instants: number[]): NthMadeSince =>
  async (from, n) =>
    [...instants].sort((a, b) => a - b).filter((at) => at >= from)[n - 1] ?? null;

const stepsOf = async (from: number, until: number, perStep: number, counts: NthMadeSince[]) => {
  const steps: Array<[number, number]> = [];
  for await (const step of retentionSteps(from, until, BUCKET, perStep, counts)) steps.push(step);
  return steps;
};

const within = (instants: number[], [from, end]: [number, number]) => instants.filter((at) => at >= from && at < end).length;

describe('retention steps (docs/privacy.md)', () => {
  it('erases a span holding no more than a step in one step', async () => {
    expect(await stepsOf(0, 1000, 5, [madeAt([1, 12, 500, 990])])).toEqual([[0, 1000]]);
    expect(await stepsOf(0, 1000, 5, [madeAt([])])).toEqual([[0, 1000]]);
  });

  it('splits a long history at bucket starts, each step holding at most its share of every count, covering the span', async () => {
    const calls = Array.from({ length: 40 }, (_, i) => i * 23);
    const deliveries = Array.from({ length: 25 }, (_, i) => 300 + i * 7);
    const steps = await stepsOf(0, 1000, 4, [madeAt(calls), madeAt(deliveries)]);
    expect(steps[0][0]).toBe(0);
    expect(steps[steps.length - 1][1]).toBe(1000);
    for (const [i, [from, end]] of steps.entries()) {
      expect(from % BUCKET).toBe(0);
      expect(end % BUCKET).toBe(0);
      expect(end).toBeGreaterThan(from);
      if (i > 0) expect(from).toBe(steps[i - 1][1]);
      expect(within(calls, [from, end])).toBeLessThanOrEqual(4);
      expect(within(deliveries, [from, end])).toBeLessThanOrEqual(4);
    }
    // Not one step a bucket either: steps take as much as their share allows.
    expect(steps.length).toBeLessThan(20);
  });

  it('makes a bucket that alone holds more than a step a step of its own', async () => {
    const crowded = [40, 41, 42, 43, 44, 45, 46];
    expect(await stepsOf(0, 100, 3, [madeAt([5, ...crowded, 75])])).toEqual([
      [0, 40],
      [40, 50],
      [50, 100],
    ]);
  });
});
