import { everyNth, forEachInSteps, runInSteps, runToEnd } from './yield-to-io';

function* counted(log: string[], steps: number): Generator<void, number> {
  for (let i = 1; i <= steps; i++) {
    log.push(`step ${i}`);
    if (i < steps) yield;
  }
  return steps;
}

describe('a long computation in steps', () => {
  it('lets pending work run between its steps when run in steps', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('other work'));
    expect(await runInSteps(counted(log, 3))).toBe(3);
    expect(log).toEqual(['step 1', 'other work', 'step 2', 'step 3']);
  });

  it('answers the same when run to its end at once, nothing let in', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('other work'));
    expect(runToEnd(counted(log, 3))).toBe(3);
    expect(log).toEqual(['step 1', 'step 2', 'step 3']);
  });

  it('calls a function for every item, a step every so many items', () => {
    const seen: number[] = [];
    const steps = forEachInSteps([1, 2, 3, 4, 5], (n) => seen.push(n), 2);
    const seenAtEachStep: number[][] = [];
    while (!steps.next().done) seenAtEachStep.push([...seen]);
    expect(seenAtEachStep).toEqual([
      [1, 2],
      [1, 2, 3, 4],
    ]);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('says true at every nth call', () => {
    const third = everyNth(3);
    expect(Array.from({ length: 7 }, () => third())).toEqual([false, false, true, false, false, true, false]);
  });
});
